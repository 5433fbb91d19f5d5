/// The bottom row naming the keys of the current screen, built from its `KeyBindingTable`:
/// `F2 Interfaces  F3 Routes  F10 Quit`. When one space between items shows more of them than two, one it is;
/// items that still do not fit are left out from the right.
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
        let gap = fitting(width: row.width, gap: 2) >= fitting(width: row.width, gap: 1) ? 2 : 1
        var x = row.x
        for item in items.prefix(fitting(width: row.width, gap: gap)) {
            x = buffer.setString(item.key, x: x, y: row.y, style: keyStyle, clip: row)
            x = buffer.setString(" " + item.label, x: x, y: row.y, style: labelStyle, clip: row) + gap
        }
    }

    /// How many items, from the left, fit in `width` columns with `gap` spaces between them.
    func fitting(width: Int, gap: Int) -> Int {
        var used = 0
        for (index, item) in items.enumerated() {
            let needed = (index == 0 ? 0 : gap) + DisplayWidth.of(item.key) + 1 + DisplayWidth.of(item.label)
            if used + needed > width { return index }
            used += needed
        }
        return items.count
    }
}
