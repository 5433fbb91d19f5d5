import TUIKit

/// What a key does on a form (other keys edit the focused field).
enum FormAction: Sendable, Equatable {
    case next, previous, save, cancel, help

    static let table = table(for: .addServer)

    /// The keys of a form for `purpose`: Enter saves, or connects on the Quick connect form.
    static func table(for purpose: FormPurpose) -> KeyBindingTable<FormAction> {
        let enter = purpose == .quickConnect
            ? KeyBinding([.enter, .function(2)], FormAction.save, label: "Connect",
                         description: "Connect to the host typed (Enter on any field)")
            : KeyBinding([.enter, .function(2)], FormAction.save, label: "Save",
                         description: "Save (Enter on any field)")
        return KeyBindingTable<FormAction>([enter] + rest)
    }

    /// What the server form's fields take that a hint line cannot say.
    static let serverNotes: [(keys: String, description: String)] = [
        ("Jump", "Servers this one is reached through, nearest first: a saved name or user@host:port, a,b for two "
            + "(a saved hop's own Jump comes first); empty: direct"),
        ("Password", "Where the password or key passphrase comes from: ask (asked each time), vault (eSSH's vault) or "
            + "command:PROGRAM ARGS (a program that prints it, run without a shell; quote words with spaces)"),
    ]

    private static let rest: [KeyBinding<FormAction>] = [
        KeyBinding([.tab, .down], .next, label: "Next", description: "Next field"),
        KeyBinding([.backTab, .up], .previous, description: "Previous field"),
        KeyBinding([.escape], .cancel, label: "Cancel", description: "Leave without saving"),
        KeyBinding([.function(1), .alt("1")], .help, label: "Help", description: "This help"),
    ]
}
