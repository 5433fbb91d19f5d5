import Foundation
import GRDB

/// The commands run on each server.
extension Inventory {
    /// Appends a command run on the server named `name`; returns the stored entry.
    @discardableResult
    public func appendHistory(serverNamed name: String, command: String, exitStatus: Int?, at date: Date = Date())
        throws(InventoryError) -> HistoryEntry {
        try write { db in
            guard let server = try Server.named(name).fetchOne(db), let id = server.id else {
                throw InventoryError.unknownServer(name)
            }
            var entry = HistoryEntry(serverId: id, command: command, ranAt: date.databasePrecision,
                                     exitStatus: exitStatus)
            try entry.insert(db)
            return entry
        }
    }

    /// The commands run on the server named `name`, newest first, at most `limit`.
    public func history(serverNamed name: String, limit: Int = 100) throws(InventoryError) -> [HistoryEntry] {
        let server = try server(named: name)
        return try read { db in
            try HistoryEntry.filter(HistoryEntry.Columns.serverId == server.id)
                .order(HistoryEntry.Columns.ranAt.desc, HistoryEntry.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }
}
