import TUIKit

/// What a key does while connecting.
enum ConnectingAction: Sendable, Equatable {
    case cancel

    static let table = KeyBindingTable<ConnectingAction>([
        KeyBinding([.escape, .ctrl("c")], .cancel, label: "Cancel", description: "Stop connecting"),
    ])
}
