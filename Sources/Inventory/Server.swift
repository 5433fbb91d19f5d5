import Foundation
import GRDB

/// A saved server: one row of the `server` table.
public struct Server: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    /// The row id (nil before insertion).
    public var id: Int64?
    /// The unique name the user types (`essh exec NAME`, `essh check NAME`).
    public var name: String
    /// Host name or address to connect to.
    public var host: String
    /// TCP port, 1...65535.
    public var port: Int
    /// Login user; nil means the local user name.
    public var user: String?
    /// How to authenticate.
    public var auth: AuthMethod
    /// Private key file when `auth` is `.key`, as the user wrote it (may start with `~`).
    public var keyPath: String?
    /// Operating system, `auto` until detected.
    public var os: ServerOS
    /// Free-form tags, sorted and without duplicates.
    public var tags: [String]
    /// A note from the user.
    public var note: String
    /// When the server was saved.
    public var createdAt: Date
    /// When the server was last changed.
    public var updatedAt: Date
    /// When eSSH last connected to it.
    public var lastConnectedAt: Date?

    /// The table name.
    public static let databaseTableName = "server"

    /// Stores the row id after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The key file with a leading `~` replaced by `home`.
    public func expandedKeyPath(home: String = NSHomeDirectory()) -> String? {
        guard let keyPath else { return nil }
        return PathExpansion.expandTilde(keyPath, home: home)
    }
}
