import Foundation

/// What the vault's edge (App's `InterfaceSecrets`) tells the interface. No secret is ever in one.
package enum VaultEvent: Sendable, Equatable {
    /// Whether a vault file exists and whether it is unlocked (said when the interface starts).
    case status(exists: Bool, unlocked: Bool)
    /// The vault was unlocked or a secret taken from it: the idle lock counts from `at`.
    case used(at: Date)
    /// How the login that just succeeded was given its password, when the vault has a part in it.
    case login(LoginSecret, vaultExists: Bool)
    /// The password typed for `server` is now in the vault.
    case remembered(server: String)
    /// Why the vault could not be used (a damaged file, a refused write), as a sentence.
    case failed(String)
    /// What a login's stored secret came to (the server refused it, the vault stayed locked, the command failed),
    /// as a sentence for the status line.
    case notice(String)
}

/// Where the password of a login came from, when the vault has a part in it.
package enum LoginSecret: Sendable, Equatable {
    /// The vault's password (or keyboard-interactive answers) logged in.
    case vault
    /// The person typed the password of the saved server `server` and it worked: offer to remember it.
    case typed(server: String)
    /// The vault's password for `server` was refused; the person typed another, which worked: offer to update it.
    case typedAfterVaultRejected(server: String)
}
