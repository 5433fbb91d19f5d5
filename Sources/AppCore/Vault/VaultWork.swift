/// The vault worker's work (App's `VaultWorker`): the secrets stay there; the core only says what to do.
package enum VaultWork: Sendable, Equatable {
    /// Drops the vault's key from memory (the lock key, or the idle lock).
    case lock
    /// Stores the password typed at the last login to `server` (held by the worker, never in the state), asking the
    /// vault passphrase first when the vault is locked.
    case rememberTyped(server: String)
    /// Forgets that typed password (the offer was declined).
    case forgetTyped
}
