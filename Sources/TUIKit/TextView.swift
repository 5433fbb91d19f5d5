/// A viewport over a `ScrollbackBuffer`: long lines wrap or scroll sideways (`layout`), and every match of a
/// search term is highlighted, the current match more strongly.
public struct TextView: Sendable {
    /// Style of ordinary text.
    public var style: Style
    /// How lines wider than the view are shown.
    public var layout: LineLayout
    /// Style of the markers where a line wraps or goes on past an edge.
    public var markerStyle: Style
    /// The search term to highlight, if any.
    public var highlight: String?
    /// The match the user is on.
    public var currentMatch: SearchMatch?
    /// Style of the other matches.
    public var matchStyle: Style
    /// Style of the current match.
    public var currentMatchStyle: Style

    /// A text view.
    public init(style: Style = .plain, layout: LineLayout = .clip, markerStyle: Style = Style(attributes: .dim),
                highlight: String? = nil, currentMatch: SearchMatch? = nil,
                matchStyle: Style = Style(fg: .black, bg: .yellow),
                currentMatchStyle: Style = Style(fg: .black, bg: .yellow, attributes: [.reverse, .bold]))
    {
        self.style = style
        self.layout = layout
        self.markerStyle = markerStyle
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
        let wrapWidth = layout.wrapWidth(area.width)
        let bottom = state.bottomPosition(scrollback, height: area.height, wrapWidth: wrapWidth)
        if state.follow { (state.top, state.topRow) = bottom }
        state.clamp(scrollback, wrapWidth: wrapWidth)
        if (state.top, state.topRow) > bottom { (state.top, state.topRow) = bottom }
        buffer.fill(area, with: .blank(style))
        var row = 0
        var number = state.top
        var firstRow = state.topRow
        while row < area.height, let line = scrollback[number] {
            var ranges: [Range<Int>] = []
            if let term = highlight, !term.isEmpty {
                ranges = scrollback.matches(of: term, inLine: number)
            }
            let current = currentMatch?.line == number ? currentMatch?.byteRange : nil
            let styleAt = { (offset: Int) -> Style in
                if let current, current.contains(offset) { return currentMatchStyle }
                if ranges.contains(where: { $0.contains(offset) }) { return matchStyle }
                return style
            }
            switch layout {
            case .wrap(let marker):
                let starts = WrappedLine.rowStarts(line, width: area.width)
                for (index, start) in starts.enumerated().dropFirst(firstRow) where row < area.height {
                    let end = index + 1 < starts.count ? starts[index + 1] : line.utf8.count
                    let piece = Self.slice(line, from: start, to: end)
                    drawRow(piece, offset: start, y: area.y + row, area: area, skip: 0, buffer: &buffer, styleAt: styleAt)
                    if index + 1 < starts.count {
                        buffer.setString(marker, x: area.maxX - 1, y: area.y + row, style: markerStyle, clip: area)
                    }
                    row += 1
                }
            case .clip, .clipMarked:
                let marked = layout != .clip
                let width = drawRow(Substring(line), offset: 0, y: area.y + row, area: area, skip: state.left,
                                    measure: marked, buffer: &buffer, styleAt: styleAt)
                if case .clipMarked(let leftMarker, let rightMarker) = layout {
                    if state.left > 0 && width > 0 {
                        buffer.setString(leftMarker, x: area.x, y: area.y + row, style: markerStyle, clip: area)
                    }
                    if width - state.left > area.width {
                        buffer.setString(rightMarker, x: area.maxX - 1, y: area.y + row, style: markerStyle,
                                         clip: area)
                    }
                }
                row += 1
            }
            number += 1
            firstRow = 0
        }
    }

    /// The bytes `from..<to` of `line` (character boundaries, from `WrappedLine`).
    private static func slice(_ line: String, from: Int, to: Int) -> Substring {
        let utf8 = line.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: from)
        let end = utf8.index(utf8.startIndex, offsetBy: to)
        return line[start..<end]
    }

    /// Draws `text` (starting at byte `offset` of its line, for the highlights) on row `y`, `skip` columns scrolled
    /// sideways; returns the width drawn, or with `measure` the text's whole width.
    @discardableResult
    private func drawRow(_ text: Substring, offset: Int, y: Int, area: Rect, skip: Int, measure: Bool = false,
                         buffer: inout Buffer, styleAt: (Int) -> Style) -> Int
    {
        var column = 0
        var offset = offset
        var full = false
        for character in text {
            let w = DisplayWidth.of(character)
            let start = offset
            column += w
            offset += character.utf8.count
            // A wide character cut by the left edge is left out rather than shown by half.
            if full || column - w < skip { continue }
            let x = area.x + column - w - skip
            if x + w > area.maxX {
                // Measured on only when the width is wanted (the markers); otherwise the row is done.
                guard measure else { break }
                full = true
                continue
            }
            buffer.setString(String(character), x: x, y: y, style: styleAt(start), clip: area)
        }
        return column
    }
}
