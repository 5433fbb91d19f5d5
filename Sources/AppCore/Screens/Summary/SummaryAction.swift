import TUIKit

/// What a key does on the end-of-session summary.
enum SummaryAction: Sendable, Equatable {
    case back, quit, save

    static let table = KeyBindingTable<SummaryAction>([
        KeyBinding([.enter, .escape, .character(" ")], .back, label: "Servers", description: "Back to the servers"),
        KeyBinding([.character("q")], .quit, label: "Quit", description: "Quit eSSH"),
    ])

    /// After a shell opened from a session: back to that session.
    static let backToSessionTable = KeyBindingTable<SummaryAction>([
        KeyBinding([.enter, .escape, .character(" ")], .back, label: "Session", description: "Back to the session"),
        KeyBinding([.character("q")], .quit, label: "Quit", description: "Quit eSSH"),
    ])

    /// After a quick connect: the same keys and `s` to save the host as a server.
    static let unsavedTable = KeyBindingTable<SummaryAction>(
        [KeyBinding([.character("s")], .save, label: "Save server", description: "Save this host as a server")]
            + table.bindings)
}
