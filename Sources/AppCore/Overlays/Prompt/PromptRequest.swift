import SSH

/// A question the SSH worker thread needs the person to answer while connecting. The worker waits for the
/// answer; the UI shows a dialog or a masked field.
package struct PromptRequest: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// An unknown host key; `alsoKnownAs`: the other names known_hosts holds this very key under (`web1`).
        case hostKey(host: String, port: Int, type: String, fingerprint: String, alsoKnownAs: [String] = [])
        case password(user: String, host: String, attempt: Int)
        case passphrase(keyFile: String, attempt: Int)
        /// Keyboard-interactive prompts; `echo` false means masked.
        case keyboard(instruction: String, prompts: [String], echo: [Bool])
    }

    package var id: Int
    package var kind: Kind

    package init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// The person's answer to a `PromptRequest`.
package enum PromptAnswer: Sendable, Equatable {
    case hostKey(HostKeyDecision)
    /// The typed texts (one per prompt), or nil when the person gave up.
    case text([String]?)
}
