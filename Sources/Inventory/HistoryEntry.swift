import Foundation
import GRDB

/// One command run on a server: one row of the `historyEntry` table.
public struct HistoryEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The row id (nil before insertion).
    public var id: Int64?
    /// The server's row id.
    public var serverId: Int64
    /// The command line as typed.
    public var command: String
    /// When it started.
    public var ranAt: Date
    /// Its exit status, nil when it never finished (killed, connection lost).
    public var exitStatus: Int?

    /// The table name.
    public static let databaseTableName = "historyEntry"

    /// An entry for the server with row id `serverId`.
    public init(id: Int64? = nil, serverId: Int64, command: String, ranAt: Date, exitStatus: Int?) {
        self.id = id
        self.serverId = serverId
        self.command = command
        self.ranAt = ranAt
        self.exitStatus = exitStatus
    }

    /// Stores the row id after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
