/// A piece of text in one style; a row of a list or a table cell is made of spans.
public struct Span: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The text (sanitized already when it came from outside).
    public var text: String
    /// Its look.
    public var style: Style

    /// A span.
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// A plain span from a literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// Display width in columns.
    public var width: Int { DisplayWidth.of(text) }
}

extension Buffer {
    /// Writes `spans` one after another from (`x`, `y`) within `clip`, cutting the last one with an ellipsis
    /// when they do not fit. Returns the column after the last cell written.
    @discardableResult
    public mutating func setSpans(_ spans: [Span], x: Int, y: Int, clip: Rect, ellipsis: Bool = true) -> Int {
        let total = spans.reduce(0) { $0 + $1.width }
        let room = clip.maxX - x
        var column = x
        if total <= room || !ellipsis {
            for span in spans { column = setString(span.text, x: column, y: y, style: span.style, clip: clip) }
            return column
        }
        var left = room
        for span in spans {
            let w = span.width
            if w < left {
                column = setString(span.text, x: column, y: y, style: span.style, clip: clip)
                left -= w
            } else {
                column = setString(DisplayWidth.truncate(span.text, to: left), x: column, y: y, style: span.style,
                                   clip: clip)
                break
            }
        }
        return column
    }
}
