import Foundation

// The values a team's shared inventory is made of (issue 18). The team database (PostgreSQL, the Team module) and
// the member's local cache (this module's SQLite tables) both speak them, so they live here, free of either.

/// A field of a server that the team shares. Everything else of a server (note, credential source, the key that
/// worked, history, saved tunnels, algorithms) stays on the member's machine.
public enum SharedField: String, CaseIterable, Sendable, Codable, Comparable {
    case name, host, port, user, jump, tags, os

    public static func < (a: SharedField, b: SharedField) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The shared part of one team server, as the team database holds it at `revision`.
public struct SharedServer: Sendable, Equatable, Codable {
    /// The server's stable id (a UUID in text), the same as the local `Server.uid`.
    public var uid: String
    public var name: String
    public var host: String
    public var port: Int
    /// The login user; nil: each member's own user name.
    public var user: String?
    /// The jump chain as `JumpList` writes it; empty: direct.
    public var jump: String
    /// Sorted, without duplicates.
    public var tags: [String]
    /// A `ServerOS` raw value (`auto` until known).
    public var os: String
    /// The team revision of the last change to this row.
    public var revision: Int64
    /// A removed server stays as a tombstone so that incremental syncs learn of the removal.
    public var deleted: Bool
    /// The PostgreSQL role that made the last change.
    public var changedBy: String
    public var changedAt: Date

    public init(uid: String, name: String, host: String, port: Int, user: String?, jump: String, tags: [String],
                os: String, revision: Int64 = 0, deleted: Bool = false, changedBy: String = "",
                changedAt: Date = Date(timeIntervalSince1970: 0)) {
        self.uid = uid
        self.name = name
        self.host = host
        self.port = port
        self.user = user
        self.jump = jump
        self.tags = tags
        self.os = os
        self.revision = revision
        self.deleted = deleted
        self.changedBy = changedBy
        self.changedAt = changedAt
    }

    /// One field as canonical text: the port in decimal, tags joined by commas, no user as "".
    public func value(_ field: SharedField) -> String {
        switch field {
        case .name: name
        case .host: host
        case .port: String(port)
        case .user: user ?? ""
        case .jump: jump
        case .tags: tags.joined(separator: ",")
        case .os: os
        }
    }

    /// Sets one field from its canonical text (the inverse of `value`); a port that is not a number is left as it is.
    public mutating func set(_ field: SharedField, _ text: String) {
        switch field {
        case .name: name = text
        case .host: host = text
        case .port: if let number = Int(text) { port = number }
        case .user: user = text.isEmpty ? nil : text
        case .jump: jump = text
        case .tags: tags = text.split(separator: ",").map(String.init)
        case .os: os = text
        }
    }

    /// Every shared field as canonical text.
    public var values: [SharedField: String] {
        Dictionary(uniqueKeysWithValues: SharedField.allCases.map { ($0, value($0)) })
    }
}

/// What a member may do with the team's rows: PostgreSQL's roles decide, this is what eSSH learnt of them.
public enum TeamRole: String, Sendable, Codable, CaseIterable {
    /// May add, change and remove shared servers and pin host keys.
    case editor
    /// May read them and publish check results.
    case member
}

/// An editor's change to the shared inventory, made locally and waiting in the outbox to be pushed.
public struct TeamEdit: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case create, update, delete
    }

    /// The outbox row (nil before it is queued).
    public var id: Int64?
    public var uid: String
    public var kind: Kind
    /// The team revision the change was made against (0 for a new server).
    public var baseRevision: Int64
    /// The changed fields' values at `baseRevision` (empty for a new server).
    public var base: [SharedField: String]
    /// The changed fields' new values (every field for a new server; empty for a removal).
    public var mine: [SharedField: String]
    public var createdAt: Date

    public init(id: Int64? = nil, uid: String, kind: Kind, baseRevision: Int64, base: [SharedField: String],
                mine: [SharedField: String], createdAt: Date = Date()) {
        self.id = id
        self.uid = uid
        self.kind = kind
        self.baseRevision = baseRevision
        self.base = base
        self.mine = mine
        self.createdAt = createdAt
    }
}

/// One field that two editors changed differently since the same base: kept for the second to choose, never
/// overwritten.
public struct TeamConflict: Sendable, Equatable, Codable {
    public var uid: String
    /// The server's name as the team has it now.
    public var name: String
    public var field: SharedField
    /// The value both started from.
    public var base: String
    /// This member's value (waiting, not pushed).
    public var mine: String
    /// The team's value now, who set it, at which revision. For a server another editor removed, `theirs` is ""
    /// and `theirsDeleted` is true.
    public var theirs: String
    public var theirsDeleted: Bool
    public var theirsBy: String
    public var theirsRevision: Int64

    public init(uid: String, name: String, field: SharedField, base: String, mine: String, theirs: String,
                theirsDeleted: Bool = false, theirsBy: String, theirsRevision: Int64) {
        self.uid = uid
        self.name = name
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
        self.theirsDeleted = theirsDeleted
        self.theirsBy = theirsBy
        self.theirsRevision = theirsRevision
    }
}

/// A host key the team pinned for host:port: members connecting there trust it without a question, and refuse any
/// other key.
public struct TeamPin: Sendable, Equatable, Codable {
    /// The host as servers name it (a name or an address), and the port.
    public var host: String
    public var port: Int
    /// `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, …
    public var keyType: String
    /// The key blob in base64, as in known_hosts.
    public var key: String
    /// `SHA256:…`.
    public var fingerprint: String
    public var pinnedBy: String
    public var pinnedAt: Date
    public var revision: Int64
    public var deleted: Bool

    public init(host: String, port: Int, keyType: String, key: String, fingerprint: String, pinnedBy: String = "",
                pinnedAt: Date = Date(timeIntervalSince1970: 0), revision: Int64 = 0, deleted: Bool = false) {
        self.host = host
        self.port = port
        self.keyType = keyType
        self.key = key
        self.fingerprint = fingerprint
        self.pinnedBy = pinnedBy
        self.pinnedAt = pinnedAt
        self.revision = revision
        self.deleted = deleted
    }
}

/// A member's latest check of one shared server, published to the team (opt-in).
public struct TeamCheck: Sendable, Equatable, Codable {
    public var serverUid: String
    /// The PostgreSQL role of the member who checked.
    public var member: String
    /// A `CheckStatus` raw value (`online`, `offline`, …).
    public var status: String
    public var latencyMs: Double?
    public var checkedAt: Date

    public init(serverUid: String, member: String, status: String, latencyMs: Double?, checkedAt: Date) {
        self.serverUid = serverUid
        self.member = member
        self.status = status
        self.latencyMs = latencyMs
        self.checkedAt = checkedAt
    }
}

/// What one pull from the team database brought: every row changed after the member's revision, and the revision
/// the member is at once they are applied.
public struct TeamChanges: Sendable, Equatable {
    public var servers: [SharedServer]
    public var pins: [TeamPin]
    public var checks: [TeamCheck]
    public var revision: Int64

    public init(servers: [SharedServer] = [], pins: [TeamPin] = [], checks: [TeamCheck] = [], revision: Int64) {
        self.servers = servers
        self.pins = pins
        self.checks = checks
        self.revision = revision
    }
}

/// The link between this local inventory and a team database.
public struct TeamLink: Sendable, Equatable, Codable {
    /// The connection URL as given, without any password (`postgres://ana@db.example.org/essh?sslmode=verify-full`).
    public var url: String
    /// The PostgreSQL role eSSH logs in as.
    public var member: String
    public var role: TeamRole
    /// The last team revision applied to the cache.
    public var revision: Int64
    public var joinedAt: Date
    /// The last sync that reached the server, the last attempt, and why the last attempt failed (nil: it did not).
    public var lastSync: Date?
    public var lastAttempt: Date?
    public var lastError: String?
    /// Whether this member publishes their check results to the team.
    public var publishChecks: Bool

    public init(url: String, member: String, role: TeamRole, revision: Int64 = 0, joinedAt: Date = Date(),
                lastSync: Date? = nil, lastAttempt: Date? = nil, lastError: String? = nil,
                publishChecks: Bool = false) {
        self.url = url
        self.member = member
        self.role = role
        self.revision = revision
        self.joinedAt = joinedAt
        self.lastSync = lastSync
        self.lastAttempt = lastAttempt
        self.lastError = lastError
        self.publishChecks = publishChecks
    }
}
