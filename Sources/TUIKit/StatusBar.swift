/// One row with text on the left and on the right (a screen's header or status line).
public struct StatusBar: Sendable {
    /// Spans from the left edge.
    public var left: [Span]
    /// Spans flush with the right edge; they give way to the left part when space is short.
    public var right: [Span]
    /// Background of the whole row.
    public var style: Style

    /// A status bar.
    public init(left: [Span], right: [Span] = [], style: Style = Style(attributes: .reverse)) {
        self.left = left
        self.right = right
        self.style = style
    }

    /// Draws the bar on the first row of `area`.
    public func render(in area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, with: .blank(style))
        let styled = { (spans: [Span]) in spans.map { Span($0.text, style: ListView.overlay($0.style, on: style)) } }
        let leftEnd = buffer.setSpans(styled(left), x: row.x, y: row.y, clip: row)
        let rightWidth = right.reduce(0) { $0 + $1.width }
        let rightX = row.maxX - rightWidth
        if rightWidth > 0 && rightX > leftEnd { buffer.setSpans(styled(right), x: rightX, y: row.y, clip: row) }
    }
}
