/// A centred box asking for one line of text: an optional message (an unknown host key's fingerprint and names), the
/// question (both wrapped at spaces, never cut), the field under it, and a hint at the bottom (`Enter: send   Esc:
/// give up`), or in its place what was wrong with the last answer. A message taller than the screen allows scrolls
/// (`top`, with `↑ more` / `↓ more`) while the question and the field stay. Passwords, passphrases, the server's
/// questions, the host key's typed answer, the fleet command.
public struct QuestionBox: Sendable {
    /// Title in the border.
    public var title: String
    /// The question above the field.
    public var question: String
    /// The keys, at the bottom.
    public var hint: String
    /// Text above the question ("" for none), paragraphs separated by newlines.
    public var message: String
    /// What was wrong with the last answer, shown instead of the hint.
    public var problem: String?
    /// The box is at least this wide when the screen allows (a wider question widens it).
    public var width: Int
    /// Border characters.
    public var border: Border
    /// Style of the field.
    public var fieldStyle: Style
    /// Style of the hint.
    public var hintStyle: Style
    /// Style of the problem.
    public var problemStyle: Style

    /// A question box.
    public init(title: String, question: String, hint: String, message: String = "", problem: String? = nil,
                width: Int = 50, border: Border = .unicode, fieldStyle: Style = Style(attributes: .underline),
                hintStyle: Style = Style(attributes: .dim), problemStyle: Style = Style(attributes: .bold)) {
        self.title = title
        self.question = question
        self.hint = hint
        self.message = message
        self.problem = problem
        self.problemStyle = problemStyle
        self.width = width
        self.border = border
        self.fieldStyle = fieldStyle
        self.hintStyle = hintStyle
    }

    /// Where everything goes in `area`: the box, and how many of the message's and the question's lines show.
    public struct Layout: Sendable, Equatable {
        /// The box.
        public var frame: Rect
        /// The message wrapped to the box's width (empty for none).
        public var message: [String]
        /// The question wrapped to the box's width.
        public var question: [String]
        /// Message lines shown at once (the rest scroll, `top`).
        public var messageRows: Int
        /// Question lines shown (its last ones give way only when nothing else can).
        public var questionRows: Int
        /// A blank row under the message (where `↓ more` goes), and one under the field.
        public var gapUnderMessage: Bool, gapUnderField: Bool
        /// Whether the hint (or the problem) has a row.
        public var footer: Bool
        /// The largest useful `top`.
        public var lastTop: Int { max(0, message.count - messageRows) }
    }

    /// The layout of the box centred in `area`. A screen too short for all of it keeps the field's row, then the
    /// question, then the hint, and scrolls the message (a host key's fingerprint and names); only then do the
    /// question's last lines give way.
    public func layout(in area: Rect) -> Layout {
        let boxWidth = min(area.width, max(width, DisplayWidth.of(question) + 4))
        let wrapWidth = max(1, boxWidth - 4)
        let messageLines = message.isEmpty ? [] : DisplayWidth.wrap(message, to: wrapWidth)
        let questionLines = DisplayWidth.wrap(question, to: wrapWidth)
        // Borders, the message and a blank line, the question, the field, a blank line, the hint.
        let wanted = (messageLines.isEmpty ? 0 : messageLines.count + 1) + questionLines.count + 5
        let frame = area.centered(width: boxWidth, height: min(wanted, area.height))
        let rows = max(0, frame.height - 2)
        let questionRows = min(questionLines.count, max(0, rows - 1))
        var left = rows - 1 - questionRows
        var layout = Layout(frame: frame, message: messageLines, question: questionLines, messageRows: 0,
                            questionRows: questionRows, gapUnderMessage: false, gapUnderField: false, footer: false)
        guard !messageLines.isEmpty else {
            // No message: the hint shows with the blank line above it, or not at all.
            layout.footer = left >= 2
            layout.gapUnderField = left >= 2
            return layout
        }
        // The hint keeps its row as long as one message line shows beside it.
        layout.footer = left >= 2
        left -= layout.footer ? 1 : 0
        layout.gapUnderField = left >= messageLines.count + 2
        left -= layout.gapUnderField ? 1 : 0
        layout.gapUnderMessage = left >= messageLines.count + 1 || left >= 3
        left -= layout.gapUnderMessage ? 1 : 0
        layout.messageRows = min(messageLines.count, max(0, left))
        return layout
    }

    /// Draws the box centred in `area` with `field` in it; returns where the cursor goes. Without a field (a wait
    /// that can only be cancelled) its row stays empty and there is no cursor. `top` is the first message line shown
    /// (clamped to what there is to scroll), with `↑ more` / `↓ more` in the border when there is more.
    @discardableResult
    public func render(_ field: TextField?, in area: Rect, top: Int = 0, buffer: inout Buffer) -> Point? {
        render(in: area, top: top, buffer: &buffer) { row, buffer in
            field?.render(in: row, buffer: &buffer, style: fieldStyle)
        }
    }

    /// Draws the box as `render(_:in:top:buffer:)` does, with `drawField` drawing the field's row (a search in place
    /// of the field, say); returns the cursor it gives.
    @discardableResult
    public func render(in area: Rect, top: Int = 0, buffer: inout Buffer,
                       drawField: (Rect, inout Buffer) -> Point?) -> Point? {
        let layout = layout(in: area)
        let frame = layout.frame
        buffer.fill(frame)
        let inner = Box(title: title, border: border).render(in: frame, buffer: &buffer)
        guard inner.height > 0 else { return nil }
        let text = Rect(x: inner.x + 1, y: inner.y, width: max(0, inner.width - 2), height: inner.height)
        var y = text.y
        let first = min(max(0, top), layout.lastTop)
        for line in layout.message.dropFirst(first).prefix(layout.messageRows) {
            buffer.setString(line, x: text.x, y: y, clip: text)
            y += 1
        }
        if first > 0 {
            buffer.setString(border == .ascii ? " ^ more " : " ↑ more ", x: frame.maxX - 10, y: frame.y, clip: frame)
        }
        if first + layout.messageRows < layout.message.count {
            // On the blank row under the message, or in the bottom border when there is none.
            buffer.setString(border == .ascii ? " v more " : " ↓ more ", x: max(inner.x, inner.maxX - 9),
                             y: layout.gapUnderMessage ? y : frame.maxY - 1, clip: frame)
        }
        y += layout.gapUnderMessage ? 1 : 0
        for line in layout.question.prefix(layout.questionRows) {
            buffer.setString(line, x: text.x, y: y, clip: text)
            y += 1
        }
        let fieldRow = Rect(x: text.x, y: y, width: text.width, height: 1)
        let cursor = drawField(fieldRow, &buffer)
        if layout.footer {
            if let problem {
                buffer.setString(problem, x: text.x, y: inner.maxY - 1, style: problemStyle, clip: text)
            } else {
                buffer.setString(hint, x: text.x, y: inner.maxY - 1, style: hintStyle, clip: text)
            }
        }
        return cursor
    }
}
