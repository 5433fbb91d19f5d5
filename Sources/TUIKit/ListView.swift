/// A scrolling list of rows with one highlighted selection; its position lives in a `ListState`.
public struct ListView: Sendable {
    /// The rows, each a line of spans.
    public var items: [[Span]]
    /// Style laid over the selected row.
    public var highlightStyle: Style
    /// Drawn before the selected row (other rows get as many spaces).
    public var highlightSymbol: String

    /// A list.
    public init(items: [[Span]], highlightStyle: Style = Style(attributes: .reverse), highlightSymbol: String = "> ") {
        self.items = items
        self.highlightStyle = highlightStyle
        self.highlightSymbol = highlightSymbol
    }

    /// Draws the visible rows into `area`, scrolling `state` so the selection stays visible.
    public func render(in area: Rect, buffer: inout Buffer, state: inout ListState) {
        guard !area.isEmpty else { return }
        state.clamp(count: items.count)
        state.scrollToSelection(visibleRows: area.height, count: items.count)
        let symbolWidth = DisplayWidth.of(highlightSymbol)
        for row in 0..<area.height {
            let index = state.offset + row
            guard index < items.count else { break }
            let y = area.y + row
            let selected = index == state.selected
            if selected { buffer.setString(highlightSymbol, x: area.x, y: y, clip: area) }
            buffer.setSpans(items[index], x: area.x + symbolWidth, y: y, clip: area)
            if selected { buffer.setStyle(area.row(row)) { Self.overlay(highlightStyle, on: $0) } }
        }
    }

    /// `top` laid over `base`: its colours win where set, attributes add up.
    static func overlay(_ top: Style, on base: Style) -> Style {
        Style(fg: top.fg == .default ? base.fg : top.fg, bg: top.bg == .default ? base.bg : top.bg,
              attributes: base.attributes.union(top.attributes))
    }
}
