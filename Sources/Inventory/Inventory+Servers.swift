import Basics
import Foundation
import GRDB

/// Saved servers: add, change, remove, list, find by name.
extension Inventory {
    /// Saves a new server; throws `.duplicateName` when the name is taken and a validation error for bad fields.
    @discardableResult
    public func addServer(_ draft: ServerDraft, at date: Date = Date()) throws(InventoryError) -> Server {
        var server = try draft.makeServer(at: date)
        return try write { db in
            if try Server.named(server.name).fetchCount(db) > 0 {
                throw Self.duplicate(server.name)
            }
            try server.insert(db)
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
            server.updatedAt = date.databasePrecision
            try server.update(db)
            return server
        }
    }

    /// Removes the server named `name` with its check results and history; throws `.unknownServer` when none.
    public func removeServer(named name: String) throws(InventoryError) {
        try write { db in
            if try Server.named(name).deleteAll(db) == 0 { throw InventoryError.unknownServer(name) }
        }
    }

    /// Removes the servers named `names` (each once, in the order given) with their check results and history, in
    /// one transaction: when any name is not saved, nothing is removed and `.unknownServer` names every missing one.
    /// Returns the names removed.
    @discardableResult
    public func removeServers(named names: [String]) throws(InventoryError) -> [String] {
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
            for name in unique { try Server.named(name).deleteAll(db) }
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
                    old.host = incoming.host
                    old.port = incoming.port
                    old.user = incoming.user
                    old.algorithms = incoming.algorithms
                    old.jump = incoming.jump
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
