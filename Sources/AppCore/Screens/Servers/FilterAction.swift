import TUIKit

/// What a key does while the filter is being typed (`/`); other keys edit the filter.
enum FilterAction: Sendable, Equatable {
    case done, clear, up, down

    static let table = KeyBindingTable<FilterAction>([
        KeyBinding([.enter], .done, description: "Keep the filter and go back to the list"),
        KeyBinding([.escape], .clear, description: "Clear the filter"),
        KeyBinding([.up], .up, description: "Previous matching server"),
        KeyBinding([.down], .down, description: "Next matching server"),
    ])
}
