import Operations
import SSH

/// The one place where the interface words what the engines report with a remedy: the SSH module's errors carry
/// the command line's advice (`--host-key-policy`, `--known-hosts`, `--timeout`, `--kex`) in `message`, which means
/// nothing here; the interface says its situation with its own keys and screens instead. Every worker that shows a
/// session's error (connecting, commands, fleet runs) goes through `sentence`.
enum InterfaceWords {
    /// `error` as the interface says it.
    static func sentence(_ error: SSHError) -> String {
        guard let remedy = error.remedy else { return error.situation }
        return error.situation + " " + Self.remedy(remedy)
    }

    /// What to do, in the interface's words.
    static func remedy(_ remedy: SSHError.Remedy) -> String {
        switch remedy {
        case .confirmHostKey:
            return "Check the fingerprint with the server's administrator, then press Enter on the server in the "
                + "list: eSSH shows its key and asks before trusting it."
        case .otherKnownHostsFile:
            return "Choose another known_hosts file in Settings (s), or fix this one."
        case .givePassword:
            return "To log in with a password, edit the server (e) and set its login to password."
        case .longerTimeout:
            return "Run it on the session's command line, where commands have no time limit."
        case .allowAlgorithms(let allow, let sha1):
            let names = allow.map { "+\($0.name) in \(Self.field($0.kind))" }.joined(separator: " and ")
            return "If you trust this device, edit the server (e) and add \(names)"
                + (sha1 ? " (ssh-rsa signs with SHA-1, which OpenSSH refuses since 8.8)." : ".")
        }
    }

    /// A connection problem as the interface says it: what is wrong, and the key that fixes it.
    static func sentence(_ problem: ConnectionProblem, saved: Bool = true) -> String {
        switch problem.kind {
        case .unreadableKey where saved: return problem.message.dropLast() + ": edit the server (e)."
        case .algorithms where saved: return problem.message + " Edit the server (e)."
        case .jumpChain where saved: return problem.message + " Edit the server's Jump field (e)."
        case .unreadableKey, .algorithms, .jumpHost, .jumpChain: return problem.message
        }
    }

    /// The server form's label of an algorithm list.
    private static func field(_ kind: AlgorithmKind) -> String {
        switch kind {
        case .kex: return "KEX"
        case .hostKey: return "Host key"
        case .cipher: return "Ciphers"
        case .mac: return "MACs"
        }
    }
}
