import SSH

/// A question the SSH worker thread needs the person to answer while connecting. The worker waits for the
/// answer; the UI shows a dialog or a masked field.
struct PromptRequest: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case hostKey(host: String, port: Int, type: String, fingerprint: String)
        case password(user: String, host: String, attempt: Int)
        case passphrase(keyFile: String, attempt: Int)
        /// Keyboard-interactive prompts; `echo` false means masked.
        case keyboard(instruction: String, prompts: [String], echo: [Bool])
    }

    var id: Int
    var kind: Kind
}

/// The person's answer to a `PromptRequest`.
enum PromptAnswer: Sendable, Equatable {
    case hostKey(HostKeyDecision)
    /// The typed texts (one per prompt), or nil when the person gave up.
    case text([String]?)
}
