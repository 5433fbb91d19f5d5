/// A centred box asking for one line of text: the question (wrapped at spaces, never cut), the field under it, and a
/// hint at the bottom (`Enter: send   Esc: give up`). Passwords, passphrases, the server's questions, the fleet
/// command.
public struct QuestionBox: Sendable {
    /// Title in the border.
    public var title: String
    /// The question above the field.
    public var question: String
    /// The keys, at the bottom.
    public var hint: String
    /// The box is at least this wide when the screen allows (a wider question widens it).
    public var width: Int
    /// Border characters.
    public var border: Border
    /// Style of the field.
    public var fieldStyle: Style
    /// Style of the hint.
    public var hintStyle: Style

    /// A question box.
    public init(title: String, question: String, hint: String, width: Int = 50, border: Border = .unicode,
                fieldStyle: Style = Style(attributes: .underline), hintStyle: Style = Style(attributes: .dim)) {
        self.title = title
        self.question = question
        self.hint = hint
        self.width = width
        self.border = border
        self.fieldStyle = fieldStyle
        self.hintStyle = hintStyle
    }

    /// Draws the box centred in `area` with `field` in it; returns where the cursor goes.
    @discardableResult
    public func render(_ field: TextField, in area: Rect, buffer: inout Buffer) -> Point? {
        let boxWidth = min(area.width, max(width, DisplayWidth.of(question) + 4))
        let lines = DisplayWidth.wrap(question, to: max(1, boxWidth - 4))
        // Borders, the question, the field, a blank line, the hint.
        let frame = area.centered(width: boxWidth, height: lines.count + 5)
        buffer.fill(frame)
        let inner = Box(title: title, border: border).render(in: frame, buffer: &buffer)
        guard inner.height > 0 else { return nil }
        let text = Rect(x: inner.x + 1, y: inner.y, width: max(0, inner.width - 2), height: inner.height)
        // When the screen is short the field keeps its row; the question's last lines and then the hint give way.
        let shown = min(lines.count, max(0, inner.height - 1))
        for (i, line) in lines.prefix(shown).enumerated() {
            buffer.setString(line, x: text.x, y: text.y + i, clip: text)
        }
        let fieldRow = Rect(x: text.x, y: text.y + shown, width: text.width, height: 1)
        let cursor = field.render(in: fieldRow, buffer: &buffer, style: fieldStyle)
        if shown + 2 < inner.height {
            buffer.setString(hint, x: text.x, y: inner.maxY - 1, style: hintStyle, clip: text)
        }
        return cursor
    }
}
