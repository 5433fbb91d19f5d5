import Basics

/// Why the vault could not be used, as a sentence a person can act on. None carries a secret. Every refusal to open
/// a file says the file was left as it was: the store never writes a vault it could not open.
public enum VaultError: UserFacingError, Equatable, Sendable {
    /// No vault file at the path.
    case missing(path: String)
    /// `init` found a vault already there.
    case exists(path: String)
    /// The file is there but does not open (damaged, cut short, empty, not age, wrong passphrase, over the limit).
    case cannotOpen(path: String, AgeError)
    /// The file is far larger than any vault (it is not read into memory whole).
    case tooLarge(path: String, limit: Int)
    /// The document inside is of a newer format than this eSSH knows.
    case newerFormat(Int, known: Int)
    /// The decrypted text is not a vault document.
    case notAVaultDocument(String)
    /// A file or folder could not be read or written.
    case file(FileSystemError)
    /// The folder or file has the wrong owner or is open to others.
    case unsafe(path: String, String)
    /// No way to get the passphrase (no terminal, no command, no agent).
    case noPassphrase(String)
    /// The passphrase command failed.
    case passphraseCommand(String)
    /// The unlock agent could not be started, reached or trusted.
    case agent(String)

    public var message: String {
        switch self {
        case .missing(let path): return "There is no vault at \(path). `essh vault init` makes one."
        case .exists(let path): return "A vault already exists at \(path); it was left as it is."
        case .cannotOpen(let path, let age):
            switch age {
            case .wrongPassphrase: return "Wrong passphrase for the vault \(path); it was left as it is."
            case .notAgeFile:
                return "The vault \(path) is empty or not an age file; it was left as it is (restore it from a backup, "
                    + "or move it away and run `essh vault init`)."
            default: return "The vault \(path) cannot be opened: \(age). It was left as it is."
            }
        case .tooLarge(let path, let limit):
            return "\(path) is larger than \(limit >> 20) MiB, which no vault is; it was left as it is."
        case .newerFormat(let format, let known):
            return "The vault holds format version \(format); this eSSH reads up to version \(known). Update eSSH; "
                + "the vault was left as it is."
        case .notAVaultDocument(let what):
            return "The vault decrypts, but what it holds is not an eSSH vault document (\(what)); it was left as it is."
        case .file(let error): return error.message
        case .unsafe(let path, let what): return "\(path) \(what)"
        case .noPassphrase(let why): return why
        case .passphraseCommand(let why): return why
        case .agent(let why): return why
        }
    }
}
