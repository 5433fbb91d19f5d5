import Basics

/// Where a saved server's stored secrets come from, by the server's stable id (`Server.uid`): eSSH's vault, or the
/// command the server names (`CommandSecretProvider`). `CredentialPrompter` asks it once per connection; a fleet run
/// asks it once per server before the run. Each method returns the secret or throws why there is none.
public protocol SecretProvider: Sendable {
    /// The login password of the server `uid`.
    func password(forServer uid: String) throws(CredentialUnavailable) -> String
    /// The passphrase of the key file `keyFile` (as expanded, absolute) of the server `uid`.
    func passphrase(forServer uid: String, keyFile: String) throws(CredentialUnavailable) -> String
    /// Answers to the server `uid`'s keyboard-interactive prompts, one per prompt text, in order.
    func answers(forServer uid: String, prompts: [String]) throws(CredentialUnavailable) -> [String]
}

/// Why a stored secret cannot be had: a sentence for the person (the vault is locked, has no entry, the command
/// failed), never the secret.
public struct CredentialUnavailable: UserFacingError, Sendable, Equatable {
    /// What happened and what to do.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
