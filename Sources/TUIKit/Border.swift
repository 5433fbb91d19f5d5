/// The characters a box is drawn with.
public struct Border: Sendable, Hashable {
    /// Horizontal line.
    public var horizontal: Character
    /// Vertical line.
    public var vertical: Character
    /// Corners: top-left, top-right, bottom-left, bottom-right.
    public var topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character

    /// A border from its six characters.
    public init(horizontal: Character, vertical: Character, topLeft: Character, topRight: Character,
                bottomLeft: Character, bottomRight: Character)
    {
        self.horizontal = horizontal
        self.vertical = vertical
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
    }

    /// Unicode box drawing: `┌─┐│└┘`.
    public static let unicode = Border(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐",
                                       bottomLeft: "└", bottomRight: "┘")
    /// Plain ASCII for terminals without UTF-8: `+-+|++`.
    public static let ascii = Border(horizontal: "-", vertical: "|", topLeft: "+", topRight: "+",
                                     bottomLeft: "+", bottomRight: "+")

    /// Unicode when the terminal speaks UTF-8, ASCII otherwise.
    public static func preferred(unicode: Bool) -> Border { unicode ? .unicode : .ascii }
}
