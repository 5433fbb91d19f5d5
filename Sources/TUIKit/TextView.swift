/// A viewport over a `ScrollbackBuffer`: lines are shown without wrapping (scroll sideways with `left`),
/// and every match of a search term is highlighted, the current match more strongly.
public struct TextView: Sendable {
    /// Style of ordinary text.
    public var style: Style
    /// The search term to highlight, if any.
    public var highlight: String?
    /// The match the user is on.
    public var currentMatch: SearchMatch?
    /// Style of the other matches.
    public var matchStyle: Style
    /// Style of the current match.
    public var currentMatchStyle: Style

    /// A text view.
    public init(style: Style = .plain, highlight: String? = nil, currentMatch: SearchMatch? = nil,
                matchStyle: Style = Style(fg: .black, bg: .yellow),
                currentMatchStyle: Style = Style(fg: .black, bg: .yellow, attributes: [.reverse, .bold]))
    {
        self.style = style
        self.highlight = highlight
        self.currentMatch = currentMatch
        self.matchStyle = matchStyle
        self.currentMatchStyle = currentMatchStyle
    }

    /// Draws the lines from `state.top` (the newest lines when following) into `area`.
    public func render(_ scrollback: ScrollbackBuffer, in area: Rect, buffer: inout Buffer,
                       state: inout TextViewState)
    {
        guard !area.isEmpty else { return }
        let bottom = state.bottomTop(scrollback, height: area.height)
        if state.follow { state.top = bottom }
        state.top = min(max(state.top, scrollback.firstLine), bottom)
        buffer.fill(area, with: .blank(style))
        for row in 0..<area.height {
            let number = state.top + row
            guard let line = scrollback[number] else { break }
            var ranges: [Range<Int>] = []
            if let term = highlight, !term.isEmpty {
                ranges = scrollback.matches(of: term, inLine: number)
            }
            let current = currentMatch?.line == number ? currentMatch?.byteRange : nil
            drawLine(line, y: area.y + row, area: area, skip: state.left, buffer: &buffer) { offset in
                if let current, current.contains(offset) { return currentMatchStyle }
                if ranges.contains(where: { $0.contains(offset) }) { return matchStyle }
                return style
            }
        }
    }

    private func drawLine(_ line: String, y: Int, area: Rect, skip: Int, buffer: inout Buffer,
                          styleAt: (Int) -> Style)
    {
        var column = 0
        var offset = 0
        for character in line {
            let w = DisplayWidth.of(character)
            let start = offset
            column += w
            offset += character.utf8.count
            // A wide character cut by the left edge is left out rather than shown by half.
            if column - w < skip { continue }
            let x = area.x + column - w - skip
            if x + w > area.maxX { break }
            buffer.setString(String(character), x: x, y: y, style: styleAt(start), clip: area)
        }
    }
}
