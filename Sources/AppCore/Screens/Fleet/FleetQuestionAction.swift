import TUIKit

/// What a key does while `x` asks for the command (then the one password); other keys type.
enum FleetQuestionAction: Sendable, Equatable {
    case run, cancel

    static let table = KeyBindingTable<FleetQuestionAction>([
        KeyBinding([.enter], .run, description: "Run the command (or send the password)"),
        KeyBinding([.escape], .cancel, description: "Cancel: nothing runs"),
    ])
}
