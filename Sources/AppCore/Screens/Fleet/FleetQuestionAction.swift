import TUIKit

/// What a key does while `x` asks for the command (then the one password); other keys type.
enum FleetQuestionAction: Sendable, Equatable {
    case run, cancel, historyUp, historyDown, historySearch

    static let table = KeyBindingTable<FleetQuestionAction>([
        KeyBinding([.enter], .run, description: "Run the command (or send the password)"),
        KeyBinding([.escape, .ctrl("c")], .cancel, description: "Cancel: nothing runs"),
        KeyBinding([.up], .historyUp, description: "Previous fleet command (one history for all fleet runs)"),
        KeyBinding([.down], .historyDown, description: "Next fleet command"),
        KeyBinding([.ctrl("r")], .historySearch, description: "Search the fleet commands as you type"),
    ])
}
