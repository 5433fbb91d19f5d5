/// How eSSH authenticates to a server. There is deliberately no case that holds a password: eSSH asks for it.
public enum AuthMethod: String, Codable, Sendable, CaseIterable {
    /// A private key file (the server's `keyPath`).
    case key
    /// Keys held by ssh-agent.
    case agent
    /// Ask for the password each time.
    case password
}
