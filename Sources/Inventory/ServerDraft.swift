import Basics
import Foundation

/// What a user gives to save a new server; validated before it reaches the database.
public struct ServerDraft: Sendable, Equatable {
    /// The unique name.
    public var name: String
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Login user, nil for the local user.
    public var user: String?
    /// Authentication; nil means `.key` when a key is given, `.agent` otherwise.
    public var auth: AuthMethod?
    /// Private key file.
    public var keyPath: String?
    /// Operating system.
    public var os: ServerOS
    /// Tags.
    public var tags: [String]
    /// Note.
    public var note: String
    /// Algorithm lists for an old device (OpenSSH syntax); empty for eSSH's defaults.
    public var algorithms: AlgorithmChoices
    /// Jump hosts as written (`JumpList`); empty or `none`: direct.
    public var jump: String
    /// Saved tunnels in their saved form (`L:5432:localhost:5432`).
    public var forwards: [String]
    /// Whether the interface starts them when it starts.
    public var autostart: Bool
    /// Where the password or key passphrase comes from.
    public var credential: CredentialSource

    /// A draft with sensible defaults (port 22, agent or key authentication, OS detected later).
    public init(name: String, host: String, port: Int = 22, user: String? = nil, auth: AuthMethod? = nil,
                keyPath: String? = nil, os: ServerOS = .auto, tags: [String] = [], note: String = "",
                algorithms: AlgorithmChoices = AlgorithmChoices(), jump: String = "", forwards: [String] = [],
                autostart: Bool = false, credential: CredentialSource = .ask) {
        self.name = name
        self.host = host
        self.port = port
        self.user = user
        self.auth = auth
        self.keyPath = keyPath
        self.os = os
        self.tags = tags
        self.note = note
        self.algorithms = algorithms
        self.jump = jump
        self.forwards = forwards
        self.autostart = autostart
        self.credential = credential
    }

    /// Every rule the server this draft would make breaks (empty when `addServer` would take it).
    public var problems: [ServerProblem] {
        ServerValidation.problems(unchecked(at: Date()))
    }

    func makeServer(at date: Date) throws(InventoryError) -> Server {
        let server = unchecked(at: date)
        try ServerValidation.validate(server)
        return server
    }

    private func unchecked(at date: Date) -> Server {
        Server(
            id: nil, name: name, host: host, port: port, user: user.flatMap { $0.isEmpty ? nil : $0 },
            auth: auth ?? (keyPath == nil ? .agent : .key), keyPath: keyPath.flatMap { $0.isEmpty ? nil : $0 },
            os: os, tags: ServerValidation.normalisedTags(tags), note: note,
            createdAt: date.databasePrecision, updatedAt: date.databasePrecision, lastConnectedAt: nil,
            algorithms: algorithms, jump: JumpList.isDirect(jump) ? "" : jump.trimmingCharacters(in: .whitespaces),
            forwards: ForwardChanges.unique(forwards), autostart: autostart,
            credential: credential)
    }
}
