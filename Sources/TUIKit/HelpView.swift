/// The help screen: every binding of a screen's `KeyBindingTable`, keys on the left, descriptions on the right.
public struct HelpView: Sendable {
    /// (keys, description) pairs in order.
    public var items: [(keys: String, description: String)]
    /// Title of the box.
    public var title: String
    /// Border characters.
    public var border: Border

    /// The help for `table`.
    public init<Action>(table: KeyBindingTable<Action>, title: String = "Keys", border: Border = .unicode) {
        items = table.helpItems
        self.title = title
        self.border = border
    }

    /// Draws a box filling `area` with one line per binding.
    public func render(in area: Rect, buffer: inout Buffer) {
        buffer.fill(area)
        let box = Box(title: title, border: border).render(in: area, buffer: &buffer)
        let inner = box.inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let keyWidth = min(items.map { DisplayWidth.of($0.keys) }.max() ?? 0, max(1, inner.width / 3))
        for (i, item) in items.enumerated() where i < inner.height {
            let y = inner.y + i
            buffer.setString(DisplayWidth.fit(item.keys, to: keyWidth), x: inner.x, y: y,
                             style: Style(attributes: .bold), clip: inner)
            buffer.setString(DisplayWidth.truncate(item.description, to: max(0, inner.width - keyWidth - 2)),
                             x: inner.x + keyWidth + 2, y: y, clip: inner)
        }
    }
}
