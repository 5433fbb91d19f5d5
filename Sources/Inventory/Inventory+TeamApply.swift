import Basics
import Foundation
import GRDB

/// Applying what a pull from the team database brought to the local cache.
extension Inventory {
    /// Applies one pull in one transaction (a failure, or the process killed, leaves the cache as it was): the
    /// team's rows are stored as the base; each shared server in the list becomes the base with this member's
    /// waiting edits laid over it, its personal fields (note, credential, key, algorithms, tunnels, dates) kept; a
    /// new one gets agent login, a credential asked, and no note; a removed one leaves the list. A shared server
    /// whose name a personal one holds is listed as `NAME~team`. Pins and check results are stored (removed pins
    /// go). The link's revision becomes `changes.revision`, its last sync `date`. Throws `.notLinked` without a
    /// link, and `.invalidValue` (nothing applied) for a team row eSSH could not save.
    @discardableResult
    public func applyTeamChanges(_ changes: TeamChanges, at date: Date = Date()) throws(InventoryError)
        -> TeamApplySummary {
        try write { db in
            guard var link = try TeamStore.link(db) else { throw InventoryError.notLinked }
            let summary = try TeamApply(db: db, at: date).apply(changes)
            link.revision = changes.revision
            link.lastSync = date.databasePrecision
            link.lastAttempt = date.databasePrecision
            link.lastError = nil
            try TeamStore.saveLink(link, db)
            return summary
        }
    }
}

/// What applying a pull changed in the list, by local server name.
public struct TeamApplySummary: Sendable, Equatable {
    /// Shared servers new in the list.
    public var added: [String] = []
    /// Shared servers whose shared fields changed.
    public var changed: [String] = []
    /// Shared servers the team removed, gone from the list.
    public var removed: [String] = []
    /// Shared servers listed under another name because a personal server holds the team's.
    public var renamed: [TeamRename] = []
    /// Pins stored or removed, and check results stored.
    public var pins = 0
    public var checks = 0

    public init() {}
}

/// A shared server listed under another name than the team's (a personal server holds the team's name).
public struct TeamRename: Sendable, Equatable {
    public var uid: String
    /// The name the team gave it.
    public var teamName: String
    /// The name it has in this list (`NAME~team`).
    public var localName: String

    public init(uid: String, teamName: String, localName: String) {
        self.uid = uid
        self.teamName = teamName
        self.localName = localName
    }
}

/// One pull being applied inside a write transaction, with prepared statements reused for every row.
struct TeamApply {
    let db: Database
    let now: Date

    init(db: Database, at date: Date) {
        self.db = db
        now = date.databasePrecision
    }

    /// The shared fields of a local row, its row id and its name.
    private struct Local {
        let id: Int64
        let name: String
        let values: [String]
    }

    func apply(_ changes: TeamChanges) throws -> TeamApplySummary {
        var summary = TeamApplySummary()
        let pending = try TeamOutbox.pendingByUid(db)
        let select = try db.cachedStatement(sql: """
            SELECT id, name, host, port, user, jump, tags, os FROM server WHERE uid = ?
            """)
        // First the local rows that change name leave their old one (a temporary name no person can type), so
        // that two servers swapping names in one pull do not collide.
        var locals: [String: Local] = [:]
        var targets: [(SharedServer, String?)] = []
        targets.reserveCapacity(changes.servers.count)
        let rename = try db.cachedStatement(sql: "UPDATE server SET name = ? WHERE id = ?")
        for incoming in changes.servers {
            var target = incoming
            if let edit = pending[incoming.uid] {
                for (field, value) in edit.mine { target.set(field, value) }
            }
            let kind = pending[incoming.uid]?.kind
            targets.append((target, kind == .delete ? nil : target.name))
            if let row = try Row.fetchOne(select, arguments: [incoming.uid]) {
                let local = Local(id: row[0], name: row[1], values: Self.values(row))
                locals[incoming.uid] = local
                if !incoming.deleted, local.name != target.name {
                    try rename.execute(arguments: ["\u{1}team \(incoming.uid)", local.id])
                }
            }
        }
        let update = try db.cachedStatement(sql: """
            UPDATE server SET name = ?, host = ?, port = ?, user = ?, jump = ?, tags = ?, os = ?, teamRevision = ? \
            WHERE id = ?
            """)
        let touch = try db.cachedStatement(sql: "UPDATE server SET updatedAt = ? WHERE id = ?")
        let remove = try db.cachedStatement(sql: "DELETE FROM server WHERE id = ?")
        let removeChecks = try db.cachedStatement(sql: "DELETE FROM team_check WHERE serverUid = ?")
        for (index, incoming) in changes.servers.enumerated() {
            if !incoming.deleted { try Self.validate(incoming) }
            try Self.upsertBase(incoming, db)
            let local = locals[incoming.uid]
            let (target, wanted) = targets[index]
            if incoming.deleted || wanted == nil {
                // Removed by the team, or by this editor (waiting to be pushed): not in the list.
                if let local {
                    try remove.execute(arguments: [local.id])
                    if incoming.deleted { summary.removed.append(local.name) }
                }
                if incoming.deleted { try removeChecks.execute(arguments: [incoming.uid]) }
                continue
            }
            let name = try TeamStore.freeName(target.name, uid: incoming.uid, db)
            if name != target.name {
                summary.renamed.append(TeamRename(uid: incoming.uid, teamName: target.name, localName: name))
            }
            let os = ServerOS(rawValue: target.os)?.rawValue ?? ServerOS.auto.rawValue
            if let local {
                try update.execute(arguments: [name, target.host, target.port, target.user,
                                               target.jump.isEmpty ? nil : target.jump,
                                               target.tags.joined(separator: ","), os, incoming.revision, local.id])
                let values = [name, target.host, String(target.port), target.user ?? "", target.jump,
                              target.tags.joined(separator: ","), os]
                if values != local.values {
                    try touch.execute(arguments: [now, local.id])
                    summary.changed.append(name)
                }
            } else {
                try Self.insertShared(target, name: name, at: now, db, teamRevision: incoming.revision)
                summary.added.append(name)
            }
        }
        try applyPins(changes.pins, &summary)
        try applyChecks(changes.checks, &summary)
        return summary
    }

    private func applyPins(_ pins: [TeamPin], _ summary: inout TeamApplySummary) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO team_pin (host, port, keyType, key, fingerprint, pinnedBy, pinnedAt, revision) \
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let remove = try db.cachedStatement(sql: "DELETE FROM team_pin WHERE host = ? AND port = ? AND keyType = ?")
        for pin in pins {
            if pin.deleted {
                try remove.execute(arguments: [pin.host, pin.port, pin.keyType])
            } else {
                try upsert.execute(arguments: [pin.host, pin.port, pin.keyType, pin.key, pin.fingerprint, pin.pinnedBy,
                                               pin.pinnedAt.databasePrecision, pin.revision])
            }
            summary.pins += 1
        }
    }

    private func applyChecks(_ checks: [TeamCheck], _ summary: inout TeamApplySummary) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO team_check (serverUid, member, status, latencyMs, checkedAt) VALUES (?, ?, ?, ?, ?)
            """)
        for check in checks {
            try upsert.execute(arguments: [check.serverUid, check.member, check.status, check.latencyMs,
                                           check.checkedAt.databasePrecision])
            summary.checks += 1
        }
    }

    /// Stores the team's row as the base (a removed one stays, marked deleted).
    static func upsertBase(_ server: SharedServer, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO team_base (uid, name, host, port, user, jump, tags, os, revision, deleted, \
            changedBy, changedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [server.uid, server.name, server.host, server.port, server.user, server.jump,
                                          server.tags.joined(separator: ","), server.os, server.revision,
                                          server.deleted, server.changedBy, server.changedAt.databasePrecision])
    }

    /// Adds a shared server to the list with a member's personal defaults: agent login, the credential asked, no
    /// note, eSSH's algorithms, no tunnels.
    static func insertShared(_ server: SharedServer, name: String, at date: Date, _ db: Database,
                             teamRevision: Int64? = nil) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO server (name, host, port, user, auth, os, tags, note, createdAt, updatedAt, jump, autostart, \
            credential, uid, teamRevision) VALUES (?, ?, ?, ?, 'agent', ?, ?, '', ?, ?, ?, 0, 'ask', ?, ?)
            """)
        let time = date.databasePrecision
        try statement.execute(arguments: [name, server.host, server.port, server.user,
                                          ServerOS(rawValue: server.os)?.rawValue ?? ServerOS.auto.rawValue,
                                          server.tags.joined(separator: ","), time, time,
                                          server.jump.isEmpty ? nil : server.jump, server.uid,
                                          teamRevision ?? server.revision])
    }

    private static func values(_ row: Row) -> [String] {
        let user: String? = row[4]
        let jump: String? = row[5]
        let port: Int = row[3]
        return [row[1], row[2], String(port), user ?? "", jump ?? "", row[6], row[7]]
    }

    /// Refuses a team row this eSSH cannot list (the same rules as a server typed here, for the shared fields).
    static func validate(_ server: SharedServer) throws {
        var problem: String?
        if let name = ServerValidation.nameProblem(server.name) {
            problem = name.message
        } else if server.host.isEmpty {
            problem = "it has no host"
        } else if !(1...65535).contains(server.port) {
            problem = "its port \(server.port) is not 1-65535"
        } else if [server.name, server.host, server.user ?? "", server.jump, server.tags.joined(separator: ",")]
            .contains(where: ControlCharacters.contains) {
            problem = "a field holds a control character"
        }
        guard let problem else { return }
        throw InventoryError(.invalidValue, server.uid, """
            The team database holds a server eSSH cannot list ('\(ControlCharacters.visible(server.name))', \
            uid \(server.uid): \(problem)); nothing of this sync was applied. Ask an editor to correct it.
            """)
    }
}
