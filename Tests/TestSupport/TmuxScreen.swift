import Foundation

/// Reading a full-screen program's screen by its parts, as lazygit's TestDriver does (`Lines(Contains(…)
/// .IsSelected())`), instead of each test slicing `capture-pane` text its own way.
extension TmuxSession {
    /// The screen without the empty line `capture-pane` ends with.
    public static func rows(_ screen: [String]) -> [String] {
        screen.last == "" ? Array(screen.dropLast()) : screen
    }

    /// The key bar: the last row that is not blank.
    public static func keyBar(_ screen: [String]) -> String? {
        screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The key bar now.
    public func keyBar() throws -> String? { Self.keyBar(try screen()) }

    /// The rows drawn in reverse video from their first column, between the title (row 0) and the key bar: a
    /// list's selected row, a dialog's focused choice.
    public func selectedRows() throws -> [String] {
        let plain = try screen()
        let coloured = try screen(colors: true)
        guard plain.count == coloured.count, plain.count > 2 else { return [] }
        let last = plain.lastIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? plain.count - 1
        let reversed = Self.startsReversed(coloured)
        return (1..<last).filter { reversed[$0] }.map { plain[$0] }
    }

    /// Waits until the selected row contains `text`; returns that row.
    @discardableResult
    public func waitForSelectedRow(containing text: String, timeout: TimeInterval = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = try selectedRows()
            if let row = last.first(where: { $0.contains(text) }) { return row }
            usleep(50_000)
        }
        throw Failure(description: "Timed out after \(Int(timeout)) s waiting for the selected row to contain "
            + "“\(text)”. Selected: \(last). Screen:\n" + (try screen()).joined(separator: "\n"))
    }

    /// Waits until some line contains `text`; returns that line (not the whole screen).
    @discardableResult
    public func waitForLine(containing text: String, timeout: TimeInterval = 15) throws -> String {
        let screen = try waitFor(text: text, timeout: timeout)
        return screen.first { $0.contains(text) }!
    }

    /// Types `line` and presses Enter.
    public func enter(_ line: String) throws {
        try type(line)
        try press("Enter")
    }

    /// For each line of a `capture-pane -e` screen, whether its first cell is in reverse video (SGR 7). tmux
    /// writes only the changes from the cell before, across lines too, so the attributes are followed throughout.
    static func startsReversed(_ lines: [String]) -> [Bool] {
        var reverse = false
        return lines.map { line in
            var first: Bool?
            var rest = Substring(line)
            while !rest.isEmpty {
                guard rest.hasPrefix("\u{1B}[") else {
                    if first == nil { first = reverse }
                    rest = rest.dropFirst()
                    continue
                }
                let body = rest.dropFirst(2)
                guard let end = body.firstIndex(where: { $0.isLetter }) else { break }
                if body[end] == "m" { reverse = Self.reverse(after: body[..<end], was: reverse) }
                rest = body[body.index(after: end)...]
            }
            return first ?? false  // an empty line: nothing is drawn there
        }
    }

    /// Whether reverse video is on after the SGR parameters `params` (`0;7`, `38;5;7`, `27`, empty for reset).
    private static func reverse(after params: Substring, was: Bool) -> Bool {
        var reverse = was
        var codes = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
        while let code = codes.popFirst() {
            switch code {
            case 0: reverse = false
            case 7: reverse = true
            case 27: reverse = false
            case 38, 48, 58:
                // An extended colour: 5;N or 2;R;G;B, whose numbers are not attributes.
                let kind = codes.popFirst()
                codes = codes.dropFirst(kind == 2 ? 3 : 1)
            default: break
            }
        }
        return reverse
    }
}
