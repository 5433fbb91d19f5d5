import TUIKit

/// The key install's box over the servers list: each step, then how it ended and which keys close it.
enum KeyInstallView {
    static func render(_ install: KeyInstallState, unicode: Bool, in area: Rect, into buffer: inout Buffer) {
        let width = min(area.width, 78)
        guard width >= 20, area.height >= 5 else { return }
        let textWidth = width - 4
        var rows: [(String, Style)] = []
        for (index, line) in install.lines.enumerated() {
            // A failure's sentence (before "Nothing was changed here.") in the error style.
            let reason = index == install.lines.count - 2
            let style = install.phase == .failed && reason ? Theme.error : Style.plain
            rows += wrap(TextSanitizer.line(line), width: textWidth).map { ($0, style) }
        }
        let hint: String
        switch install.phase {
        case .running: hint = "Esc cancels."
        case .installed, .failed: hint = "Esc or Enter closes."
        }
        // The newest lines stay in view when there are more than fit.
        let room = area.height - 3
        if rows.count > room { rows.removeFirst(rows.count - room) }
        let box = area.centered(width: width, height: rows.count + 3)
        buffer.fill(box)
        let inner = Box(title: "Install key on \(install.server)", border: Border.preferred(unicode: unicode))
            .render(in: box, buffer: &buffer)
        for (i, row) in rows.enumerated() {
            buffer.setString(row.0, x: inner.x + 1, y: inner.y + i, style: row.1, clip: inner)
        }
        buffer.setString(hint, x: inner.x + 1, y: inner.y + rows.count, style: Theme.hint, clip: inner)
    }

    /// `text` cut into rows of at most `width` columns, at spaces where it can be.
    static func wrap(_ text: String, width: Int) -> [String] {
        var rows: [String] = []
        var row = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = row.isEmpty ? word : row + " " + word
            if DisplayWidth.of(candidate) <= width {
                row = candidate
                continue
            }
            if !row.isEmpty { rows.append(row) }
            var rest = word
            while DisplayWidth.of(rest) > width {
                let head = DisplayWidth.truncate(rest, to: width, ellipsis: "")
                rows.append(head)
                rest = String(rest.dropFirst(head.count))
            }
            row = rest
        }
        if !row.isEmpty || rows.isEmpty { rows.append(row) }
        return rows
    }
}
