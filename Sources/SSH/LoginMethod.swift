/// How a session logged in, as a value (the interface saves a quick-connected host from it; logs show its text).
public enum LoginMethod: Sendable, Equatable, CustomStringConvertible {
    /// The server let the user in without authentication.
    case none
    /// A private key file.
    case keyFile(path: String)
    /// A key held by ssh-agent, named by its comment.
    case agent(comment: String)
    /// A password.
    case password
    /// Keyboard-interactive prompts (a password through PAM, usually).
    case keyboardInteractive

    /// The method as logs and `essh -v` show it: `publickey (/root/.ssh/id_ed25519)`, `publickey (agent: me@x)`,
    /// `password`, `keyboard-interactive`, `none`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .keyFile(let path): return "publickey (\(path))"
        case .agent(let comment): return "publickey (agent: \(comment))"
        case .password: return "password"
        case .keyboardInteractive: return "keyboard-interactive"
        }
    }
}
