import Basics
import Foundation
import GRDB

/// The outcome of one online check of a saved server: one row of the `checkResult` table.
public struct CheckResult: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The row id (nil before insertion).
    public var id: Int64?
    /// The checked server's row id.
    public var serverId: Int64
    /// What the check found (Reachability's verdict), stored as its word (`online`, `not-ssh`, …).
    public var status: CheckStatus
    /// Milliseconds the TCP connection took, when it was made.
    public var latencyMs: Double?
    /// The first line the server sent (printable ASCII), when one came.
    public var banner: String?
    /// Why the check failed, in words.
    public var error: String?
    /// When the check finished.
    public var checkedAt: Date

    /// The table name.
    public static let databaseTableName = "checkResult"

    /// A result for the server with row id `serverId`.
    public init(id: Int64? = nil, serverId: Int64, status: CheckStatus, latencyMs: Double?, banner: String?,
                error: String?, checkedAt: Date) {
        self.id = id
        self.serverId = serverId
        self.status = status
        self.latencyMs = latencyMs
        self.banner = banner
        self.error = error
        self.checkedAt = checkedAt
    }

    /// Reads a row of the `checkResult` table (by hand: thousands are read and written per check run).
    public init(row: Row) throws {
        id = row["id"]
        serverId = row["serverId"]
        status = row["status"] ?? CheckStatus.unknownStoredWord
        latencyMs = row["latencyMs"]
        banner = row["banner"]
        error = row["error"]
        checkedAt = row["checkedAt"]
    }

    /// Writes the columns of the `checkResult` table.
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["serverId"] = serverId
        container["status"] = status
        container["latencyMs"] = latencyMs
        container["banner"] = banner
        container["error"] = error
        container["checkedAt"] = checkedAt
    }

    /// Stores the row id after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
