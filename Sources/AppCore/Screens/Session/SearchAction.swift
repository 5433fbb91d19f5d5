import TUIKit

/// What a key does while the session's search bar is open. Keys that are no binding here but are the session's
/// (PgUp, F2, F10…) go to the session; other keys type the term.
enum SearchAction: Sendable, Equatable {
    case find, close, older, newer, stay

    static let table = KeyBindingTable<SearchAction>([
        KeyBinding([.enter], .find, description: "Find the term (again: the next older match)"),
        KeyBinding([.escape], .close, description: "Close the search bar"),
        KeyBinding([.ctrl("p"), .up], .older, description: "Previous (older) match"),
        KeyBinding([.ctrl("n"), .down], .newer, description: "Next (newer) match"),
        KeyBinding([.ctrl("f")], .stay, description: "Nothing more: the search bar is open"),
    ])
}
