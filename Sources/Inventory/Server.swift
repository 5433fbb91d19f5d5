import Basics
import Foundation
import GRDB

/// A saved server: one row of the `server` table.
public struct Server: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    /// The row id (nil before insertion).
    public var id: Int64?
    /// The unique name the user types (`essh exec NAME`, `essh check NAME`).
    public var name: String
    /// Host name or address to connect to.
    public var host: String
    /// TCP port, 1...65535.
    public var port: Int
    /// Login user; nil means the local user name.
    public var user: String?
    /// How to authenticate.
    public var auth: AuthMethod
    /// Private key file when `auth` is `.key`, as the user wrote it (may start with `~`).
    public var keyPath: String?
    /// Operating system, `auto` until detected.
    public var os: ServerOS
    /// Free-form tags, sorted and without duplicates.
    public var tags: [String]
    /// A note from the user.
    public var note: String
    /// When the server was saved.
    public var createdAt: Date
    /// When the server was last changed.
    public var updatedAt: Date
    /// When eSSH last connected to it.
    public var lastConnectedAt: Date?
    /// Algorithm lists changed for this server (an old device), in OpenSSH's syntax; empty for eSSH's defaults.
    public var algorithms: AlgorithmChoices
    /// The jump hosts to go through, as written (`JumpList`: `bastion`, `admin@gw:2222,bastion2`); empty: direct.
    public var jump: String
    /// Saved tunnels: forwards as `essh servers edit --forward` takes them (`L:5432:localhost:5432`, `D:1080`),
    /// in order. Their syntax is the Forwarding module's rule, checked by whoever saves them.
    public var forwards: [String]
    /// Whether the interface starts the saved tunnels when it starts.
    public var autostart: Bool
    /// Where the password or key passphrase comes from: asked, the vault, or a command (`CredentialSource`).
    public var credential: CredentialSource
    /// The server's stable id (a random UUID, set when it is saved and never changed, not even by a rename): the
    /// vault keys its entries by it.
    public var uid: String
    /// The identity that last logged in (a key file path, or `agent:SHA256:…` for an agent key), offered first
    /// next time; nil until one has.
    public var lastIdentity: String?
    /// The team revision of this server's shared fields (issue 18): nil for a personal server, 0 for a shared one
    /// added here and not yet pushed, otherwise the revision of the team's row it was last synced with.
    public var teamRevision: Int64?

    /// Whether the server belongs to the team's shared list (its shared fields are the team's).
    public var isShared: Bool { teamRevision != nil }

    /// The table name.
    public static let databaseTableName = "server"

    // Rows are mapped by hand rather than through Codable: `essh check` reads 10,000 servers per run and the
    // Codable path (a JSON decoder per row for the tags) cost three times as much. Tags are stored as one
    // comma-separated text (a tag can hold no comma or space).

    /// Reads a row of the `server` table.
    public init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        host = row["host"]
        port = row["port"]
        user = row["user"]
        auth = AuthMethod(rawValue: row["auth"] ?? "") ?? .agent
        keyPath = row["keyPath"]
        os = row["os"] ?? .auto
        let tagText: String = row["tags"] ?? ""
        tags = tagText.split(separator: ",").map(String.init)
        note = row["note"] ?? ""
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        lastConnectedAt = row["lastConnectedAt"]
        algorithms = AlgorithmChoices(kex: row["kexAlgorithms"], hostKeys: row["hostKeyAlgorithms"],
                                      ciphers: row["ciphers"], macs: row["macs"])
        jump = row["jump"] ?? ""
        let forwardText: String = row["forwards"] ?? ""
        forwards = forwardText.split(separator: "\n").map(String.init)
        autostart = row["autostart"] ?? false
        credential = CredentialSource(stored: row["credential"])
        uid = row["uid"] ?? ""
        lastIdentity = row["lastIdentity"]
        teamRevision = row["teamRevision"]
    }

    /// Writes the columns of the `server` table.
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["host"] = host
        container["port"] = port
        container["user"] = user
        container["auth"] = auth.rawValue
        container["keyPath"] = keyPath
        container["os"] = os
        container["tags"] = tags.joined(separator: ",")
        container["note"] = note
        container["createdAt"] = createdAt
        container["updatedAt"] = updatedAt
        container["lastConnectedAt"] = lastConnectedAt
        container["kexAlgorithms"] = algorithms.kex
        container["hostKeyAlgorithms"] = algorithms.hostKeys
        container["ciphers"] = algorithms.ciphers
        container["macs"] = algorithms.macs
        container["jump"] = jump.isEmpty ? nil : jump
        container["forwards"] = forwards.isEmpty ? nil : forwards.joined(separator: "\n")
        container["autostart"] = autostart
        container["credential"] = credential.text
        container["uid"] = uid
        container["lastIdentity"] = lastIdentity
        container["teamRevision"] = teamRevision
    }

    /// Every field.
    public init(id: Int64?, name: String, host: String, port: Int, user: String?, auth: AuthMethod, keyPath: String?,
                os: ServerOS, tags: [String], note: String, createdAt: Date, updatedAt: Date, lastConnectedAt: Date?,
                algorithms: AlgorithmChoices = AlgorithmChoices(), jump: String = "", forwards: [String] = [],
                autostart: Bool = false, credential: CredentialSource = .ask, uid: String = "",
                lastIdentity: String? = nil, teamRevision: Int64? = nil) {
        self.id = id
        self.name = name
        self.host = host
        self.port = port
        self.user = user
        self.auth = auth
        self.keyPath = keyPath
        self.os = os
        self.tags = tags
        self.note = note
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastConnectedAt = lastConnectedAt
        self.algorithms = algorithms
        self.jump = jump
        self.forwards = forwards
        self.autostart = autostart
        self.credential = credential
        self.uid = uid
        self.lastIdentity = lastIdentity
        self.teamRevision = teamRevision
    }

    /// A new stable id for a server being saved.
    public static func newUID() -> String { UUID().uuidString.lowercased() }

    /// Gives a server saved without a stable id its own (every insert: add, import, restore).
    public mutating func willInsert(_ db: Database) throws {
        if uid.isEmpty { uid = Self.newUID() }
    }

    /// Stores the row id after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The key file with a leading `~` replaced by `home`.
    public func expandedKeyPath(home: String = NSHomeDirectory()) -> String? {
        guard let keyPath else { return nil }
        return PathExpansion.expandTilde(keyPath, home: home)
    }
}
