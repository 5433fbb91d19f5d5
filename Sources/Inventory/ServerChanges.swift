import Basics

/// The fields of a saved server to change (`essh servers edit`); nil leaves a field as it is.
public struct ServerChanges: Sendable, Equatable {
    /// New name.
    public var name: String?
    /// New host.
    public var host: String?
    /// New port.
    public var port: Int?
    /// New user; an empty string clears it.
    public var user: String?
    /// New authentication.
    public var auth: AuthMethod?
    /// New key file; an empty string clears it.
    public var keyPath: String?
    /// New operating system.
    public var os: ServerOS?
    /// New tags (replace the old ones).
    public var tags: [String]?
    /// New note.
    public var note: String?
    /// New algorithm lists, each on its own: nil leaves one as it is, an empty string clears it.
    public var algorithms: AlgorithmChanges
    /// New jump hosts (`JumpList`); empty or `none` makes the server direct.
    public var jump: String?
    /// Saved tunnels added, removed or cleared.
    public var forwards: ForwardChanges
    /// Whether the interface starts the saved tunnels when it starts.
    public var autostart: Bool?
    /// New credential source.
    public var credential: CredentialSource?

    /// Changes nothing until fields are set.
    public init(name: String? = nil, host: String? = nil, port: Int? = nil, user: String? = nil,
                auth: AuthMethod? = nil, keyPath: String? = nil, os: ServerOS? = nil, tags: [String]? = nil,
                note: String? = nil, algorithms: AlgorithmChanges = AlgorithmChanges(), jump: String? = nil,
                forwards: ForwardChanges = ForwardChanges(), autostart: Bool? = nil,
                credential: CredentialSource? = nil) {
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

    /// True when no field is set.
    public var isEmpty: Bool { self == ServerChanges() }

    func applied(to old: Server) -> Server {
        var server = old
        if let name { server.name = name }
        if let host { server.host = host }
        if let port { server.port = port }
        if let user { server.user = user.isEmpty ? nil : user }
        if let keyPath {
            server.keyPath = keyPath.isEmpty ? nil : keyPath
            if auth == nil { server.auth = keyPath.isEmpty ? .agent : .key }
        }
        if let auth { server.auth = auth }
        if let os { server.os = os }
        if let tags { server.tags = ServerValidation.normalisedTags(tags) }
        if let note { server.note = note }
        server.algorithms = algorithms.applied(to: server.algorithms)
        if let jump { server.jump = JumpList.isDirect(jump) ? "" : jump.trimmingCharacters(in: .whitespaces) }
        server.forwards = forwards.applied(to: server.forwards)
        if let autostart { server.autostart = autostart }
        if let credential { server.credential = credential }
        return server
    }
}

/// Changes to a server's algorithm lists (`essh servers edit --ciphers …`): nil leaves a list as it is, an empty
/// string clears it (back to eSSH's defaults).
public struct AlgorithmChanges: Sendable, Equatable {
    public var kex: String?
    public var hostKeys: String?
    public var ciphers: String?
    public var macs: String?

    /// Changes nothing until lists are set.
    public init(kex: String? = nil, hostKeys: String? = nil, ciphers: String? = nil, macs: String? = nil) {
        self.kex = kex
        self.hostKeys = hostKeys
        self.ciphers = ciphers
        self.macs = macs
    }

    /// Sets every list to `choices`' (a form that shows them all).
    public init(replacingWith choices: AlgorithmChoices) {
        self.init(kex: choices.kex ?? "", hostKeys: choices.hostKeys ?? "", ciphers: choices.ciphers ?? "",
                  macs: choices.macs ?? "")
    }

    func applied(to old: AlgorithmChoices) -> AlgorithmChoices {
        AlgorithmChoices(kex: kex ?? old.kex, hostKeys: hostKeys ?? old.hostKeys, ciphers: ciphers ?? old.ciphers,
                         macs: macs ?? old.macs)
    }
}

/// Changes to a server's saved tunnels (`essh servers edit --forward SPEC`, `--no-forward SPEC`, `--forward none`):
/// first everything is cleared (`clear`), then `remove` goes, then `add` is appended (a forward saved already stays
/// where it is). The texts are compared as given: callers write them in the saved form (`ForwardSpec.savedText`).
public struct ForwardChanges: Sendable, Equatable {
    public var clear: Bool
    public var add: [String]
    public var remove: [String]

    /// Changes nothing until set.
    public init(clear: Bool = false, add: [String] = [], remove: [String] = []) {
        self.clear = clear
        self.add = add
        self.remove = remove
    }

    /// Replaces the whole list (the interface's Tunnels screen saves a server's list as it shows it).
    public init(replacingWith forwards: [String]) {
        self.init(clear: true, add: forwards)
    }

    /// True when nothing changes.
    public var isEmpty: Bool { !clear && add.isEmpty && remove.isEmpty }

    func applied(to old: [String]) -> [String] {
        var list = clear ? [] : old.filter { !remove.contains($0) }
        for forward in add where !list.contains(forward) { list.append(forward) }
        return list
    }

    /// `forwards` without blanks and repeats, in order.
    static func unique(_ forwards: [String]) -> [String] {
        ForwardChanges(add: forwards.filter { !$0.isEmpty }).applied(to: [])
    }
}
