/// A centred box with a message and a row of buttons (confirmations, host key questions, errors).
public struct Dialog: Sendable {
    /// Title in the border.
    public var title: String
    /// The message; wrapped to the dialog's width.
    public var message: String
    /// Button labels, left to right.
    public var buttons: [String]
    /// Index of the focused button.
    public var selected: Int
    /// Border characters.
    public var border: Border
    /// Style of the focused button.
    public var selectedStyle: Style

    /// A dialog.
    public init(title: String, message: String, buttons: [String], selected: Int = 0, border: Border = .unicode,
                selectedStyle: Style = Style(attributes: [.reverse, .bold]))
    {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.selected = selected
        self.border = border
        self.selectedStyle = selectedStyle
    }

    /// Draws the dialog centred in `area`, clearing what is behind it; returns the dialog's rectangle.
    @discardableResult
    public func render(in area: Rect, buffer: inout Buffer) -> Rect {
        let labels = buttons.map { "[ \($0) ]" }
        let buttonsWidth = labels.reduce(0) { $0 + DisplayWidth.of($1) } + max(0, labels.count - 1) * 2
        let longestLine = message.split(separator: "\n").map { DisplayWidth.of(String($0)) }.max() ?? 0
        let wanted = max(longestLine, buttonsWidth, DisplayWidth.of(title) + 2, 20) + 4
        let width = min(wanted, area.width)
        let lines = DisplayWidth.wrap(message, to: max(1, width - 4))
        let height = min(lines.count + (buttons.isEmpty ? 2 : 4), area.height)
        let frame = area.centered(width: width, height: height)
        buffer.fill(frame)
        let inner = Box(title: title, border: border).render(in: frame, buffer: &buffer)
        let text = inner.inset(horizontal: 1, vertical: 0)
        for (i, line) in lines.enumerated() where i < text.height {
            buffer.setString(line, x: text.x, y: text.y + i, clip: text)
        }
        if !buttons.isEmpty && inner.height >= 1 {
            var x = inner.x + max(0, (inner.width - buttonsWidth) / 2)
            let y = inner.maxY - 1
            for (i, label) in labels.enumerated() {
                x = buffer.setString(label, x: x, y: y, style: i == selected ? selectedStyle : .plain, clip: inner) + 2
            }
        }
        return frame
    }
}
