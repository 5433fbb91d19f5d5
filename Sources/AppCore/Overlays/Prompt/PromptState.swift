import SSH
import TUIKit

/// A masked (or plain) text question on screen: a password, a passphrase, keyboard-interactive prompts, and an
/// unknown host key, which is answered by typing `yes` (as OpenSSH asks), never by Enter alone.
struct PromptState: Sendable, Equatable {
    var id: Int
    var title: String
    /// What the question is about, wrapped above the label (the host key's fingerprint); empty for most.
    var message: String
    /// One label per answer; the person answers them in turn.
    var labels: [String]
    var echo: [Bool]
    var answers: [String] = []
    var input: TextField
    /// Set for an unknown host key: its fingerprint, which typed in full also trusts it (as with OpenSSH).
    var hostKeyFingerprint: String?
    /// What was wrong with the last answer (an unknown host key answered with neither yes, once nor no).
    var problem: String?
    /// The first line of the message shown, when the screen is too short for all of it (↑/↓ scroll).
    var top = 0
    /// What Enter and Esc do, when not the usual "send" and "give up" (the vault's question).
    var hint: String?
    /// Whether it is a connection's question, closed when the connection fails; the vault's question before
    /// remembering a password is not (its worker waits for the answer).
    var ofConnection = true

    init(id: Int, title: String, message: String = "", labels: [String], echo: [Bool],
         hostKeyFingerprint: String? = nil) {
        self.id = id
        self.title = title
        self.message = message
        self.labels = labels
        self.echo = echo
        self.hostKeyFingerprint = hostKeyFingerprint
        input = TextField(masked: !(echo.first ?? false))
    }

    /// The decision the typed answer gives about an unknown host key: `yes` or the fingerprint trusts and saves it,
    /// `once` trusts it this time, `no` refuses; nil for anything else (empty included), which answers nothing.
    static func hostKeyDecision(_ typed: String, fingerprint: String) -> HostKeyDecision? {
        let answer = typed.trimmingCharacters(in: .whitespaces)
        switch answer.lowercased() {
        case "yes": return .acceptAndSave
        case "once": return .acceptOnce
        case "no": return .reject
        default: return !answer.isEmpty && answer == fingerprint ? .acceptAndSave : nil
        }
    }

    var currentLabel: String { labels.indices.contains(answers.count) ? labels[answers.count] : "" }
}
