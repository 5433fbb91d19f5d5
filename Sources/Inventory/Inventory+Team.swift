import Basics
import Foundation
import GRDB

/// The member's local cache of a team's shared inventory (issue 18): the link, leaving, what the cache holds.
/// Applying a pull is in Inventory+TeamApply.swift, the editor's outbox and conflicts in Inventory+TeamEdits.swift.
extension Inventory {
    /// The link to a team database, or nil when this inventory is not linked.
    public func teamLink() throws(InventoryError) -> TeamLink? {
        try read { db in try TeamStore.link(db) }
    }

    /// Saves the link (joining a team, or changing its URL, role or opt-ins); the one link replaces any other.
    public func saveTeamLink(_ link: TeamLink) throws(InventoryError) {
        try write { db in try TeamStore.saveLink(link, db) }
    }

    /// Leaves the team in one transaction: the link, the team's rows, pins, check results, pending edits and
    /// conflicts go. Shared servers are removed from the list, or with `keepCopies` kept as personal servers. A
    /// server added here and never pushed (team revision 0) is always kept as a personal one: nothing typed is lost.
    /// Returns the number of shared servers removed (without `keepCopies`; those never pushed are not counted) or
    /// turned personal (with it); throws `.notLinked` when there is no link.
    @discardableResult
    public func leaveTeam(keepCopies: Bool) throws(InventoryError) -> Int {
        try write { db in
            guard try TeamStore.link(db) != nil else { throw InventoryError.notLinked }
            try db.execute(sql: "UPDATE server SET teamRevision = NULL WHERE teamRevision = 0")
            let neverPushed = db.changesCount
            let count: Int
            if keepCopies {
                try db.execute(sql: "UPDATE server SET teamRevision = NULL WHERE teamRevision IS NOT NULL")
                count = neverPushed + db.changesCount
            } else {
                try db.execute(sql: "DELETE FROM server WHERE teamRevision IS NOT NULL")
                count = db.changesCount
            }
            for table in ["team_link", "team_base", "team_outbox", "team_conflict", "team_pin", "team_check"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            return count
        }
    }

    /// Notes a sync that did not reach the team database: when, and why. The revision and last sync stay.
    public func noteTeamSyncFailure(_ message: String, at date: Date = Date()) throws(InventoryError) {
        try write { db in
            try db.execute(sql: "UPDATE team_link SET lastAttempt = ?, lastError = ?",
                           arguments: [date.databasePrecision, message])
            if db.changesCount == 0 { throw InventoryError.notLinked }
        }
    }

    /// The team's row for the server `uid` as last synced (a removed one has `deleted`), or nil.
    public func teamBase(uid: String) throws(InventoryError) -> SharedServer? {
        try read { db in try TeamStore.base(uid: uid, db) }
    }

    /// The team's pinned host keys for host:port (oldest type name first).
    public func teamPins(host: String, port: Int) throws(InventoryError) -> [TeamPin] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM team_pin WHERE host = ? AND port = ? ORDER BY keyType",
                             arguments: [host, port]).map(TeamStore.pin)
        }
    }

    /// The check results members published for the server `uid`, by member.
    public func teamChecks(serverUid uid: String) throws(InventoryError) -> [TeamCheck] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM team_check WHERE serverUid = ? ORDER BY member",
                             arguments: [uid]).map(TeamStore.check)
        }
    }

    /// Every published check result, by server uid (each list by member): the servers list reads them at once.
    public func teamChecksByServer() throws(InventoryError) -> [String: [TeamCheck]] {
        try read { db in
            let all = try Row.fetchAll(db, sql: "SELECT * FROM team_check ORDER BY serverUid, member")
                .map(TeamStore.check)
            return Dictionary(grouping: all, by: \.serverUid)
        }
    }

    /// How much of the team the cache holds: shared servers in the list, edits waiting, conflicts waiting.
    public func teamCounts() throws(InventoryError) -> TeamCounts {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM server WHERE teamRevision IS NOT NULL) AS shared,
                       (SELECT count(*) FROM team_outbox) AS outbox,
                       (SELECT count(*) FROM team_conflict) AS conflicts
                """)
            return TeamCounts(shared: row?["shared"] ?? 0, outbox: row?["outbox"] ?? 0, conflicts: row?["conflicts"] ?? 0)
        }
    }

    /// The shared inventory as this cache holds it, as canonical JSON (sorted keys, no dates): the revision, the
    /// team's servers not removed in uid order with every shared field, their revision and who changed them last,
    /// and the pins. Two members synced to the same revision have byte-for-byte equal snapshots.
    public func teamSnapshot() throws(InventoryError) -> String {
        struct Snapshot: Encodable {
            struct Pin: Encodable {
                let host: String, port: Int, keyType: String, key: String, fingerprint: String, pinnedBy: String
                let revision: Int64
            }
            struct Shared: Encodable {
                let uid: String, name: String, host: String, port: Int, user: String, jump: String, tags: [String]
                let os: String, revision: Int64, changedBy: String
            }
            let revision: Int64
            let servers: [Shared]
            let pins: [Pin]
        }
        let snapshot = try read { db in
            let servers = try Row.fetchAll(db, sql: "SELECT * FROM team_base WHERE NOT deleted ORDER BY uid")
                .map(TeamStore.shared).map {
                    Snapshot.Shared(uid: $0.uid, name: $0.name, host: $0.host, port: $0.port, user: $0.user ?? "",
                                    jump: $0.jump, tags: $0.tags, os: $0.os, revision: $0.revision,
                                    changedBy: $0.changedBy)
                }
            let pins = try Row.fetchAll(db, sql: "SELECT * FROM team_pin ORDER BY host, port, keyType")
                .map(TeamStore.pin).map {
                    Snapshot.Pin(host: $0.host, port: $0.port, keyType: $0.keyType, key: $0.key,
                                 fingerprint: $0.fingerprint, pinnedBy: $0.pinnedBy, revision: $0.revision)
                }
            return Snapshot(revision: try TeamStore.link(db)?.revision ?? 0, servers: servers, pins: pins)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        } catch {
            throw InventoryError.wrap(error, path: path)
        }
    }
}

/// How much of a team the local cache holds.
public struct TeamCounts: Sendable, Equatable {
    /// Shared servers in the list (those added here and not yet pushed included).
    public var shared: Int
    /// Edits waiting to be pushed.
    public var outbox: Int
    /// Conflicts waiting for the editor's choice.
    public var conflicts: Int

    public init(shared: Int, outbox: Int, conflicts: Int) {
        self.shared = shared
        self.outbox = outbox
        self.conflicts = conflicts
    }
}

extension SharedServer {
    /// The shared part of a local server row (at its team revision, 0 for one's own).
    public init(_ server: Server) {
        self.init(uid: server.uid, name: server.name, host: server.host, port: server.port, user: server.user,
                  jump: server.jump, tags: server.tags, os: server.os.rawValue, revision: server.teamRevision ?? 0)
    }
}

extension Server {
    /// One shared field of the server as canonical text (`SharedServer.value`, the one spelling).
    public func sharedValue(_ field: SharedField) -> String {
        SharedServer(self).value(field)
    }

    /// Sets one shared field from its canonical text; a port that is not a number stays, an OS this eSSH does not
    /// know reads as `auto`.
    mutating func setShared(_ field: SharedField, _ text: String) {
        var shared = SharedServer(self)
        shared.set(field, text)
        name = shared.name
        host = shared.host
        port = shared.port
        user = shared.user
        jump = shared.jump
        tags = shared.tags
        os = ServerOS(rawValue: shared.os) ?? .auto
    }

    /// The shared fields whose values differ between `self` and `other`, in field order.
    func sharedFieldsChanged(from other: Server) -> [SharedField] {
        SharedField.allCases.filter { sharedValue($0) != other.sharedValue($0) }
    }
}

/// The team tables' rows, read and written inside the Inventory's transactions.
enum TeamStore {
    static func link(_ db: Database) throws -> TeamLink? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM team_link WHERE id = 1") else { return nil }
        return TeamLink(url: row["url"], member: row["member"], role: TeamRole(rawValue: row["role"]) ?? .member,
                        revision: row["revision"], joinedAt: row["joinedAt"], lastSync: row["lastSync"],
                        lastAttempt: row["lastAttempt"], lastError: row["lastError"],
                        publishChecks: row["publishChecks"])
    }

    static func saveLink(_ link: TeamLink, _ db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO team_link (id, url, member, role, revision, joinedAt, lastSync, lastAttempt, \
            lastError, publishChecks) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [link.url, link.member, link.role.rawValue, link.revision, link.joinedAt.databasePrecision,
                             link.lastSync?.databasePrecision, link.lastAttempt?.databasePrecision, link.lastError,
                             link.publishChecks])
    }

    static func base(uid: String, _ db: Database) throws -> SharedServer? {
        try Row.fetchOne(db, sql: "SELECT * FROM team_base WHERE uid = ?", arguments: [uid]).map(shared)
    }

    static func shared(_ row: Row) -> SharedServer {
        let tags: String = row["tags"]
        return SharedServer(uid: row["uid"], name: row["name"], host: row["host"], port: row["port"],
                            user: row["user"], jump: row["jump"], tags: tags.split(separator: ",").map(String.init),
                            os: row["os"], revision: row["revision"], deleted: row["deleted"],
                            changedBy: row["changedBy"], changedAt: row["changedAt"])
    }

    static func pin(_ row: Row) -> TeamPin {
        TeamPin(host: row["host"], port: row["port"], keyType: row["keyType"], key: row["key"],
                fingerprint: row["fingerprint"], pinnedBy: row["pinnedBy"], pinnedAt: row["pinnedAt"],
                revision: row["revision"])
    }

    static func check(_ row: Row) -> TeamCheck {
        TeamCheck(serverUid: row["serverUid"], member: row["member"], status: row["status"],
                  latencyMs: row["latencyMs"], checkedAt: row["checkedAt"])
    }

    /// The local row holding the server `uid`, or nil.
    static func server(uid: String, _ db: Database) throws -> Server? {
        try Server.filter(Column("uid") == uid).fetchOne(db)
    }

    /// `name` when no other server than `uid` holds it; else `name~team` (then `name~team2`, …), the name a shared
    /// server gets beside a personal one of the same name.
    static func freeName(_ name: String, uid: String, _ db: Database) throws -> String {
        let holder = try db.cachedStatement(sql: "SELECT uid FROM server WHERE name = ?")
        var candidate = name
        var attempt = 1
        while let other = try String.fetchOne(holder, arguments: [candidate]), other != uid {
            candidate = attempt == 1 ? "\(name)~team" : "\(name)~team\(attempt)"
            attempt += 1
        }
        return candidate
    }
}
