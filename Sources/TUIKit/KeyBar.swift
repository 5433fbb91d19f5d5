/// The bottom row naming the keys of the current screen, built from its `KeyBindingTable`:
/// `F2 Interfaces  F3 Routes  F10 Quit`. Items that do not fit are left out from the right.
public struct KeyBar: Sendable {
    /// (key, label) pairs in order.
    public var items: [(key: String, label: String)]
    /// Style of the key names.
    public var keyStyle: Style
    /// Style of the labels.
    public var labelStyle: Style

    /// A key bar showing the labelled bindings of `table`.
    public init<Action>(table: KeyBindingTable<Action>, keyStyle: Style = Style(attributes: [.bold, .reverse]),
                        labelStyle: Style = .plain)
    {
        items = table.keyBarItems
        self.keyStyle = keyStyle
        self.labelStyle = labelStyle
    }

    /// Draws the bar on the first row of `area`.
    public func render(in area: Rect, buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, with: .blank(labelStyle))
        var x = row.x
        for item in items {
            let needed = DisplayWidth.of(item.key) + 1 + DisplayWidth.of(item.label)
            if x + needed > row.maxX { break }
            x = buffer.setString(item.key, x: x, y: row.y, style: keyStyle, clip: row)
            x = buffer.setString(" " + item.label, x: x, y: row.y, style: labelStyle, clip: row) + 2
        }
    }
}
