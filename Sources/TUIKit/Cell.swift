/// One terminal cell: a grapheme (a base character with any combining marks) and its style.
///
/// A wide grapheme occupies its own cell plus a continuation cell to its right (`width == 0`, empty text),
/// so every row of a `Buffer` holds exactly `width` cells whatever the text.
public struct Cell: Sendable, Hashable {
    /// The grapheme shown; empty in a continuation cell.
    public var text: String
    /// The look of the cell.
    public var style: Style
    /// Columns the grapheme covers: 1, 2 for a wide character, 0 for a continuation cell.
    public var width: UInt8

    /// A cell holding `text` (one grapheme of display width `width`).
    public init(_ text: String, style: Style = .plain, width: UInt8 = 1) {
        self.text = text
        self.style = style
        self.width = width
    }

    /// An empty cell: a space in the default style.
    public static let blank = Cell(" ")

    /// A blank cell with the given style, for filling backgrounds.
    public static func blank(_ style: Style) -> Cell { Cell(" ", style: style) }

    /// The right half of a wide character.
    static func continuation(_ style: Style) -> Cell { Cell("", style: style, width: 0) }

    /// True for the right half of a wide character.
    public var isContinuation: Bool { width == 0 }
}
