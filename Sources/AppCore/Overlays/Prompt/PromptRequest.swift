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
        /// The vault's passphrase, masked: asked once when a stored secret is first needed while the vault is locked
        /// (again after a wrong one, at most 3 times, `problem` saying what was wrong), and before remembering a
        /// typed password.
        case vaultPassphrase(attempt: Int, problem: String?, purpose: VaultPurpose)
    }

    /// Why the vault passphrase is asked, named in the question.
    package enum VaultPurpose: Sendable, Equatable {
        /// A login to this server needs a secret from the vault (nil: a server not named).
        case login(server: String?)
        /// The password typed for this server is to be stored.
        case remember(server: String)
        /// A fleet run's password servers take their secrets from the vault (asked once for the run).
        case fleetRun
    }

    package var id: Int
    package var kind: Kind

    package init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// Whether the question belongs to a connection (dropped with it when the connection is given up); the vault's
    /// question before remembering a password, nor the one of a fleet run, does not.
    package var belongsToConnection: Bool {
        if case .vaultPassphrase(_, _, .remember) = kind { return false }
        if case .vaultPassphrase(_, _, .fleetRun) = kind { return false }
        return true
    }
}

/// The person's answer to a `PromptRequest`.
package enum PromptAnswer: Sendable, Equatable {
    case hostKey(HostKeyDecision)
    /// The typed texts (one per prompt), or nil when the person gave up.
    case text([String]?)
}
