import TUIKit

/// What a key does in a dialog. A letter key that is no binding chooses the button starting with it (the letter
/// is the button's, so it cannot be in a table; help says so).
enum DialogAction: Sendable, Equatable {
    case previous, next, choose, cancel, scrollUp, scrollDown

    static let table = KeyBindingTable<DialogAction>([
        KeyBinding([.enter], .choose, description: "Choose the highlighted button"),
        KeyBinding([.escape], .cancel, description: "Close it; a question is answered no"),
        KeyBinding([.left, .backTab], .previous, description: "Previous button"),
        KeyBinding([.right, .tab], .next, description: "Next button"),
        KeyBinding([.up, .pageUp], .scrollUp, description: "Scroll a message taller than the screen up"),
        KeyBinding([.down, .pageDown], .scrollDown, description: "Scroll it down"),
    ])

    /// Help lines for what is not a binding.
    static let notes: [(keys: String, description: String)] = [
        ("a letter", "The button that starts with it"),
    ]
}
