import TUIKit

/// What a key does on the end-of-session summary.
enum SummaryAction: Sendable, Equatable {
    case back, quit

    static let table = KeyBindingTable<SummaryAction>([
        KeyBinding([.enter, .escape, .character(" ")], .back, label: "Servers", description: "Back to the servers"),
        KeyBinding([.character("q")], .quit, label: "Quit", description: "Quit eSSH"),
    ])
}
