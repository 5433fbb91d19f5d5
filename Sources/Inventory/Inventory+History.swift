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

    /// Appends a command run from the interface on `serverCount` servers at once (`x`); returns the stored entry.
    @discardableResult
    public func appendFleetHistory(command: String, serverCount: Int, at date: Date = Date())
        throws(InventoryError) -> FleetHistoryEntry {
        try write { db in
            var entry = FleetHistoryEntry(command: command, ranAt: date.databasePrecision, serverCount: serverCount)
            try entry.insert(db)
            return entry
        }
    }

    /// The commands run on several servers at once, newest first, at most `limit`.
    public func fleetHistory(limit: Int = 100) throws(InventoryError) -> [FleetHistoryEntry] {
        try read { db in
            try FleetHistoryEntry.order(FleetHistoryEntry.Columns.ranAt.desc, FleetHistoryEntry.Columns.id.desc)
                .limit(limit).fetchAll(db)
        }
    }
}
