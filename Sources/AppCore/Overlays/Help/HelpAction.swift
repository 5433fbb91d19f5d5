import TUIKit

/// What a key does while the help is open (other keys do nothing).
enum HelpAction: Sendable, Equatable {
    case close, up, down, pageUp, pageDown, top, bottom

    static let table = KeyBindingTable<HelpAction>([
        KeyBinding([.escape, .function(1), .character("?"), .character("q"), .enter], .close,
                   description: "Close the help"),
        KeyBinding([.up, .character("k")], .up, description: "Scroll the help up"),
        KeyBinding([.down, .character("j")], .down, description: "Scroll the help down"),
        KeyBinding([.pageUp, .character("b")], .pageUp, description: "Page up"),
        KeyBinding([.pageDown, .character(" ")], .pageDown, description: "Page down"),
        KeyBinding([.home, .character("g")], .top, description: "First line"),
        KeyBinding([.end, .character("G")], .bottom, description: "Last line"),
    ])
}
