import Crypto
import Foundation

/// Which identity logged a session in, with the key's fingerprint where a key did: what a front end remembers per
/// server (to offer it first next time, `preferred`) and shows on the session header (`description`).
public enum LoginIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The server let the user in without authentication.
    case none
    /// A private key file; `fingerprint` is nil only when its public half could not be read (a PEM key without a
    /// `.pub` beside it).
    case keyFile(path: String, fingerprint: String?)
    /// A key held by ssh-agent: its comment (what `ssh-add -l` shows) and fingerprint.
    case agentKey(comment: String, fingerprint: String)
    /// A password.
    case password
    /// Keyboard-interactive prompts (a password through PAM, usually).
    case keyboardInteractive

    /// `SHA256:…` as `ssh-keygen -lf` prints it, for a key; nil for the other methods.
    public var fingerprint: String? {
        switch self {
        case .keyFile(_, let fingerprint): return fingerprint
        case .agentKey(_, let fingerprint): return fingerprint
        case .none, .password, .keyboardInteractive: return nil
        }
    }

    /// The method alone (`LoginMethod`, what logs and the interface showed before fingerprints).
    public var method: LoginMethod {
        switch self {
        case .none: return .none
        case .keyFile(let path, _): return .keyFile(path: path)
        case .agentKey(let comment, _): return .agent(comment: comment)
        case .password: return .password
        case .keyboardInteractive: return .keyboardInteractive
        }
    }

    /// What to give `ConnectOptions.preferredIdentity` next time so this key is tried first; nil for passwords,
    /// keyboard-interactive and `none`.
    public var preferred: PreferredIdentity? {
        switch self {
        case .keyFile(let path, _): return .keyFile(path: path)
        case .agentKey(_, let fingerprint): return .agentKey(fingerprint: fingerprint)
        case .none, .password, .keyboardInteractive: return nil
        }
    }

    /// For a session header: `key ~/.ssh/id_ed25519 (SHA256:…)`, `agent key me@laptop (SHA256:…)`, `password`,
    /// `keyboard-interactive`, `none`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .keyFile(let path, let fingerprint): return "key \(path)" + (fingerprint.map { " (\($0))" } ?? "")
        case .agentKey(let comment, let fingerprint): return "agent key \(comment) (\(fingerprint))"
        case .password: return "password"
        case .keyboardInteractive: return "keyboard-interactive"
        }
    }

    /// `SHA256:` and the unpadded base64 of the SHA-256 of a public key blob, as OpenSSH prints fingerprints.
    public static func fingerprint(ofBlob blob: [UInt8]) -> String {
        "SHA256:" + Data(SHA256.hash(data: blob)).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }
}

/// The key to offer before any other (`ConnectOptions.preferredIdentity`): the one that logged in last time, so a
/// server with a small `MaxAuthTries` does not disconnect a user whose agent holds many keys.
public enum PreferredIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A private key file.
    case keyFile(path: String)
    /// A key of ssh-agent, named by its fingerprint (`SHA256:…`): comments are not unique and may change.
    case agentKey(fingerprint: String)

    /// One line to store (`file:/home/me/.ssh/id_ed25519`, `agent:SHA256:…`), read back by `init?(storedText:)`.
    public var storedText: String {
        switch self {
        case .keyFile(let path): return "file:" + path
        case .agentKey(let fingerprint): return "agent:" + fingerprint
        }
    }

    /// Reads `storedText`; nil for anything else (an empty path, an agent key that is no `SHA256:` fingerprint).
    public init?(storedText: String) {
        if storedText.hasPrefix("file:"), storedText.count > 5 {
            self = .keyFile(path: String(storedText.dropFirst(5)))
        } else if storedText.hasPrefix("agent:SHA256:"), storedText.count > 13 {
            self = .agentKey(fingerprint: String(storedText.dropFirst(6)))
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .keyFile(let path): return "key \(path)"
        case .agentKey(let fingerprint): return "agent key \(fingerprint)"
        }
    }
}
