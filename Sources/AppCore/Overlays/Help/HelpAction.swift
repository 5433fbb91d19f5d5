import TUIKit

/// What a key does while the help is open (other keys do nothing).
enum HelpAction: Sendable, Equatable {
    case close, up, down, pageUp, pageDown, top, bottom

    static let table = KeyBindingTable<HelpAction>([
        KeyBinding([.escape, .function(1), .character("?"), .character("q"), .enter], .close,
                   description: "Close the help"),
        KeyBinding([.up], .up, description: "Scroll the help up"),
        KeyBinding([.down], .down, description: "Scroll the help down"),
        KeyBinding([.pageUp], .pageUp, description: "Page up"),
        KeyBinding([.pageDown], .pageDown, description: "Page down"),
        KeyBinding([.home], .top, description: "First line"),
        KeyBinding([.end], .bottom, description: "Last line"),
    ])
}
