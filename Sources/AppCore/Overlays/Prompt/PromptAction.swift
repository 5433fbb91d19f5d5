import TUIKit

/// What a key does in a password, passphrase or keyboard-interactive question (other keys type the answer).
enum PromptAction: Sendable, Equatable {
    case answer, giveUp, scrollUp, scrollDown

    static let table = KeyBindingTable<PromptAction>([
        KeyBinding([.enter], .answer, description: "Send the answer (then the next question, if any)"),
        KeyBinding([.escape], .giveUp, description: "Give up: the login stops"),
        KeyBinding([.up], .scrollUp, description: "Scroll a long message up (a host key's, on a short screen)"),
        KeyBinding([.down], .scrollDown, description: "Scroll it down"),
    ])
}
