import TUIKit

/// What a key does in a password, passphrase or keyboard-interactive question (other keys type the answer).
enum PromptAction: Sendable, Equatable {
    case answer, giveUp

    static let table = KeyBindingTable<PromptAction>([
        KeyBinding([.enter], .answer, description: "Send the answer (then the next question, if any)"),
        KeyBinding([.escape], .giveUp, description: "Give up: the login stops"),
    ])
}
