/// The vault as the interface uses it: the seam between the interface and the encrypted vault file (the real one is
/// an adapter onto `Vault.VaultStore`; tests give a fake). Secrets are bytes, handed out on request and never kept
/// by the caller longer than needed. Every method may block (scrypt, the disk): the interface calls them only from
/// worker threads.
protocol InterfaceVault: Sendable {
    /// Whether the vault's key is in memory.
    var isUnlocked: Bool { get }
    /// Whether a vault file exists (`essh vault init` makes it).
    func exists() -> Bool
    /// Opens the vault with `passphrase`, keeping its key in memory until `lock`; throws a `VaultProblem` saying
    /// why not (a wrong passphrase, no vault yet, a damaged file).
    func unlock(passphrase: [UInt8]) throws(VaultProblem)
    /// Drops the key (zeroed); the next secret needs the passphrase again.
    func lock()
    /// The stored secret of this kind for the server with this stable id; nil when the vault has none. Only while
    /// unlocked (else a `VaultProblem` of kind `locked`).
    func secret(serverUID: String, kind: VaultSecretKind) throws(VaultProblem) -> [UInt8]?
    /// Stores (or replaces) the login password of the server `serverUID`, named `name` in `essh vault list`.
    func remember(password: [UInt8], serverUID: String, name: String) throws(VaultProblem)
}

/// Which of a server's secrets.
enum VaultSecretKind: Sendable, Equatable {
    /// Its login password.
    case password
    /// The passphrase of this key file (as expanded, absolute).
    case passphrase(keyFile: String)
    /// The answer to this keyboard-interactive prompt (its text as the server sends it).
    case answer(prompt: String)
}

/// Why the vault could not do what was asked, as a sentence for the person; `kind` says whether asking the
/// passphrase again can help.
struct VaultProblem: Error, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The passphrase does not open the vault: asking again may help.
        case wrongPassphrase
        /// There is no vault file (`essh vault init` makes one).
        case noVault
        /// The vault is locked (a secret asked for without unlocking).
        case locked
        /// Anything else: a damaged or unreadable file, a write that failed.
        case failed
    }

    var kind: Kind
    /// What happened, as a sentence, never with a secret in it.
    var sentence: String

    init(_ kind: Kind, _ sentence: String) {
        self.kind = kind
        self.sentence = sentence
    }
}
