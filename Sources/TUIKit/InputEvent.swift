/// Something the terminal reports: a key, a mouse wheel turn, or a new size.
public enum InputEvent: Sendable, Hashable {
    /// A key press.
    case key(Key)
    /// The mouse wheel turned towards the user's screen top.
    case wheelUp
    /// The mouse wheel turned towards the screen bottom.
    case wheelDown
    /// The terminal now has this size; redraw everything.
    case resize(Size)
}
