import Basics
import Foundation
import GRDB

/// Saved servers written back as a whole, from an export.
extension Inventory {
    /// Saves `servers` as they are — every field, the dates too — in one transaction: a new name is added, a saved
    /// one gets every field of the incoming server (its check results and history stay). Nothing is saved when one
    /// of them breaks a rule (the error names it) or a name comes twice.
    @discardableResult
    public func restoreServers(_ servers: [Server]) throws(InventoryError) -> ImportSummary {
        let servers = servers.map { incoming in
            var server = incoming
            server.createdAt = server.createdAt.databasePrecision
            server.updatedAt = server.updatedAt.databasePrecision
            server.lastConnectedAt = server.lastConnectedAt?.databasePrecision
            server.tags = ServerValidation.normalisedTags(server.tags)
            return server
        }
        var seen = Set<String>()
        for server in servers {
            guard seen.insert(server.name).inserted else {
                throw InventoryError(.duplicateName, server.name, """
                    The server '\(ControlCharacters.visible(server.name))' comes twice; nothing was imported. \
                    Keep one of them.
                    """)
            }
            do {
                try ServerValidation.validate(server)
            } catch {
                throw InventoryError(error.kind, error.detail, """
                    Server '\(ControlCharacters.visible(server.name))': \(error.message) Nothing was imported.
                    """)
            }
        }
        return try write { db in
            var summary = ImportSummary()
            for incoming in servers {
                var server = incoming
                if let old = try Server.named(server.name).fetchOne(db) {
                    server.id = old.id
                    server.uid = old.uid  // the vault's entries stay with the server they were saved for
                    if server == old {
                        summary.unchanged.append(server.name)
                    } else {
                        try server.update(db)
                        summary.updated.append(server.name)
                    }
                } else {
                    server.id = nil
                    // A stable id another server holds (the same export restored under two names) is not shared.
                    if try Server.filter(Column("uid") == server.uid).fetchCount(db) > 0 { server.uid = "" }
                    try server.insert(db)
                    summary.added.append(server.name)
                }
            }
            return summary
        }
    }
}
