/// A bordered frame with an optional title in its top edge.
public struct Box: Sendable {
    /// Title shown in the top border.
    public var title: String?
    /// Border characters.
    public var border: Border
    /// Style of the border.
    public var style: Style
    /// Style of the title.
    public var titleStyle: Style

    /// A box.
    public init(title: String? = nil, border: Border = .unicode, style: Style = .plain,
                titleStyle: Style = Style(attributes: .bold))
    {
        self.title = title
        self.border = border
        self.style = style
        self.titleStyle = titleStyle
    }

    /// The area inside the border.
    public static func inner(_ area: Rect) -> Rect { area.inset(by: 1) }

    /// Draws the border around `area` and returns the inside.
    @discardableResult
    public func render(in area: Rect, buffer: inout Buffer) -> Rect {
        guard area.width >= 2, area.height >= 2 else { return Rect(x: area.x, y: area.y, width: 0, height: 0) }
        let h = String(border.horizontal), v = String(border.vertical)
        for x in (area.x + 1)..<(area.maxX - 1) {
            buffer.setString(h, x: x, y: area.y, style: style)
            buffer.setString(h, x: x, y: area.maxY - 1, style: style)
        }
        for y in (area.y + 1)..<(area.maxY - 1) {
            buffer.setString(v, x: area.x, y: y, style: style)
            buffer.setString(v, x: area.maxX - 1, y: y, style: style)
        }
        buffer.setString(String(border.topLeft), x: area.x, y: area.y, style: style)
        buffer.setString(String(border.topRight), x: area.maxX - 1, y: area.y, style: style)
        buffer.setString(String(border.bottomLeft), x: area.x, y: area.maxY - 1, style: style)
        buffer.setString(String(border.bottomRight), x: area.maxX - 1, y: area.maxY - 1, style: style)
        if let title, area.width > 4 {
            let text = " " + DisplayWidth.truncate(title, to: area.width - 4) + " "
            buffer.setString(text, x: area.x + 1, y: area.y, style: titleStyle,
                             clip: Rect(x: area.x + 1, y: area.y, width: area.width - 2, height: 1))
        }
        return Self.inner(area)
    }
}
