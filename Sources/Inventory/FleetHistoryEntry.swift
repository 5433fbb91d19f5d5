import Foundation
import GRDB

/// One command run on several servers at once from the interface (`x`): one row of the `fleetHistoryEntry` table.
/// One history for every fleet run, whatever servers it ran on: the command is what is typed again, on whichever
/// servers are marked then.
public struct FleetHistoryEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The row id (nil before insertion).
    public var id: Int64?
    /// The command line as typed.
    public var command: String
    /// When it started.
    public var ranAt: Date
    /// How many servers it ran on.
    public var serverCount: Int

    /// The table name.
    public static let databaseTableName = "fleetHistoryEntry"

    /// An entry.
    public init(id: Int64? = nil, command: String, ranAt: Date, serverCount: Int) {
        self.id = id
        self.command = command
        self.ranAt = ranAt
        self.serverCount = serverCount
    }

    /// Stores the row id after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension FleetHistoryEntry {
    /// The table's columns.
    public enum Columns {
        /// The `id` column.
        public static let id = Column("id")
        /// The `ranAt` column.
        public static let ranAt = Column("ranAt")
    }
}
