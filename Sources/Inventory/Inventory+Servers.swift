import Basics
import Foundation
import GRDB

/// Saved servers: add, change, remove, list, find by name.
extension Inventory {
    /// Saves a new server; throws `.duplicateName` when the name is taken and a validation error for bad fields.
    /// With `team`, the server is added to the team's shared list (issue 18): it needs a link to a team
    /// (`.notLinked`) and the editor role (`.teamReadOnly`), and is saved with team revision 0 and queued for the
    /// team (a `create` edit with every shared field) in the same transaction.
    @discardableResult
    public func addServer(_ draft: ServerDraft, team: Bool = false, at date: Date = Date()) throws(InventoryError)
        -> Server {
        var server = try draft.makeServer(at: date)
        return try write { db in
            if team {
                _ = try TeamOutbox.editorLink(db, refusing: "add servers to the team's list")
                server.teamRevision = 0
            }
            if try Server.named(server.name).fetchCount(db) > 0 {
                throw Self.duplicate(server.name)
            }
            try server.insert(db)
            if team {
                let values = Dictionary(uniqueKeysWithValues: SharedField.allCases.map { ($0, server.sharedValue($0)) })
                try TeamOutbox.queue(TeamEdit(uid: server.uid, kind: .create, baseRevision: 0, base: [:],
                                              mine: values, createdAt: date), db)
            }
            return server
        }
    }

    /// Changes the server named `name`; throws `.unknownServer` when there is none.
    @discardableResult
    public func updateServer(named name: String, _ changes: ServerChanges, at date: Date = Date())
        throws(InventoryError) -> Server {
        try write { db in
            guard let old = try Server.named(name).fetchOne(db) else {
                throw InventoryError.unknownServer(name)
            }
            var server = changes.applied(to: old)
            try ServerValidation.validate(server)
            if server == old { return old }
            if server.name != old.name, try Server.named(server.name).fetchCount(db) > 0 {
                throw Self.duplicate(server.name)
            }
            // A shared server's shared fields are the team's: a member may not change them, an editor's change is
            // queued for the team with it.
            try TeamOutbox.interceptUpdate(old: old, new: server, at: date, db)
            server.updatedAt = date.databasePrecision
            try server.update(db)
            return server
        }
    }

    /// Removes the server named `name` with its check results and history; throws `.unknownServer` when none.
    /// A shared server: a member is refused (`.teamReadOnly`), an editor's removal is queued for the team.
    public func removeServer(named name: String, at date: Date = Date()) throws(InventoryError) {
        try write { db in
            guard let server = try Server.named(name).fetchOne(db) else { throw InventoryError.unknownServer(name) }
            try TeamOutbox.interceptRemove(server, at: date, db)
            try server.delete(db)
        }
    }

    /// Removes the servers named `names` (each once, in the order given) with their check results and history, in
    /// one transaction: when any name is not saved, nothing is removed and `.unknownServer` names every missing one.
    /// Returns the names removed.
    /// Shared servers follow `removeServer`'s rule (a member's refusal removes nothing).
    @discardableResult
    public func removeServers(named names: [String], at date: Date = Date()) throws(InventoryError) -> [String] {
        var seen = Set<String>()
        let unique = names.filter { seen.insert($0).inserted }
        return try write { db in
            let missing = try unique.filter { try Server.named($0).fetchCount(db) == 0 }
            if missing.count == 1, unique.count == 1 { throw InventoryError.unknownServer(missing[0]) }
            if !missing.isEmpty {
                let list = missing.map { "'\($0)'" }.joined(separator: ", ")
                throw InventoryError(.unknownServer, "", """
                    No saved servers are named \(list); nothing was removed. `essh servers list` shows the saved ones.
                    """)
            }
            for name in unique {
                guard let server = try Server.named(name).fetchOne(db) else { continue }
                try TeamOutbox.interceptRemove(server, at: date, db)
                try server.delete(db)
            }
            return unique
        }
    }

    /// The server named `name`; throws `.unknownServer` when there is none.
    public func server(named name: String) throws(InventoryError) -> Server {
        guard let server = try findServer(named: name) else { throw InventoryError.unknownServer(name) }
        return server
    }

    /// The server named `name`, or nil.
    public func findServer(named name: String) throws(InventoryError) -> Server? {
        try read { db in try Server.named(name).fetchOne(db) }
    }

    /// Every saved server in name order, or only those carrying `tag`.
    public func servers(taggedWith tag: String? = nil) throws(InventoryError) -> [Server] {
        let all = try read { db in try Server.order(Server.Columns.name.collating(.nocase)).fetchAll(db) }
        guard let tag else { return all }
        return all.filter { $0.tags.contains(tag) }
    }

    /// The number of saved servers.
    public func serverCount() throws(InventoryError) -> Int {
        try read { db in try Server.fetchCount(db) }
    }

    /// Records a successful connection (and the OS it revealed, when detected) on the server named `name`.
    public func recordConnection(named name: String, os: ServerOS? = nil, at date: Date = Date())
        throws(InventoryError) {
        try write { db in
            guard var server = try Server.named(name).fetchOne(db) else {
                throw InventoryError.unknownServer(name)
            }
            server.lastConnectedAt = date.databasePrecision
            if let os, os != .auto { server.os = os }
            try server.update(db)
        }
    }

    /// Records the identity that logged in to the server with row id `serverID` (a key file path, or
    /// `agent:SHA256:…`), to offer it first next time. Not a change the person made: `updatedAt` stays.
    public func recordIdentity(serverID: Int64, _ identity: String) throws(InventoryError) {
        try write { db in
            try db.execute(sql: "UPDATE server SET lastIdentity = ? WHERE id = ?", arguments: [identity, serverID])
            if db.changesCount == 0 {
                throw InventoryError(.unknownServer, "\(serverID)", "No saved server has the id \(serverID).")
            }
        }
    }

    /// Adds the servers whose names are new and updates the connection fields (host, port, user, key, jump hosts, algorithm
    /// lists) of those already saved, in one transaction; tags, notes and OS of saved servers are kept, and so are
    /// their saved tunnels, the draft's new ones added after them (a tunnel saved in eSSH is never lost to an import).
    /// Invalid drafts are skipped and listed in the summary with the reason.
    public func importServers(_ drafts: [ServerDraft], at date: Date = Date()) throws(InventoryError) -> ImportSummary {
        try write { db in
            var summary = ImportSummary()
            for draft in drafts {
                let incoming: Server
                do {
                    incoming = try draft.makeServer(at: date)
                } catch let error as InventoryError {
                    summary.skipped.append("\(draft.name): \(error.message)")
                    continue
                }
                if var old = try Server.named(draft.name).fetchOne(db) {
                    let before = old
                    if old.isShared {
                        // The team's fields of a shared server are not an import's to change (its personal
                        // ones are): said in the summary when the import differs.
                        if (old.host, old.port, old.user, old.jump)
                            != (incoming.host, incoming.port, incoming.user, incoming.jump) {
                            summary.skipped.append("""
                                \(draft.name): shared with the team; its host, port, user and jump hosts stay the \
                                team's (an editor changes them with `essh servers edit`)
                                """)
                        }
                    } else {
                        old.host = incoming.host
                        old.port = incoming.port
                        old.user = incoming.user
                        old.jump = incoming.jump
                    }
                    old.algorithms = incoming.algorithms
                    let newTunnels = incoming.forwards.filter { !old.forwards.contains($0) }
                    old.forwards += newTunnels
                    if incoming.keyPath != nil || old.auth == .key {
                        old.auth = incoming.auth
                        old.keyPath = incoming.keyPath
                    }
                    if old == before {
                        summary.unchanged.append(draft.name)
                    } else {
                        old.updatedAt = date.databasePrecision
                        try old.update(db)
                        summary.updated.append(draft.name)
                        summary.tunnels += newTunnels.count
                    }
                } else {
                    var server = incoming
                    try server.insert(db)
                    summary.added.append(draft.name)
                    summary.tunnels += server.forwards.count
                }
            }
            return summary
        }
    }

    private static func duplicate(_ name: String) -> InventoryError {
        InventoryError(.duplicateName, "", """
            A server named '\(name)' is already saved. Pick another name, or change it with `essh servers edit \(name)`.
            """)
    }
}

/// What an import did, by server name.
public struct ImportSummary: Sendable, Equatable {
    /// Servers saved for the first time.
    public var added: [String] = []
    /// Saved servers whose connection fields changed.
    public var updated: [String] = []
    /// Saved servers already up to date.
    public var unchanged: [String] = []
    /// Entries not saved, as "name: why".
    public var skipped: [String] = []
    /// Saved tunnels that came in: those of the servers added, and those new to the servers updated.
    public var tunnels = 0
}
