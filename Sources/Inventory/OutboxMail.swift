import Foundation
import GRDB

/// A mail message kept until it is sent: one row of the `outboxMail` table.
public struct OutboxMail: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    /// The row id (nil before insertion); `essh mail --retry` and the TUI name messages by it.
    public var id: Int64?
    /// When it was queued.
    public var createdAt: Date
    /// Its recipients, comma-separated.
    public var recipients: String
    /// Its subject as written (not encoded).
    public var subject: String
    /// The whole message, exactly as sendmail is given it.
    public var message: Data
    /// How many times sending was tried.
    public var attempts: Int
    /// Why the last attempt failed.
    public var lastError: String?
    /// When sending was last tried.
    public var lastAttemptAt: Date?
    /// When it was sent; nil while it waits.
    public var sentAt: Date?

    /// The table name.
    public static let databaseTableName = "outboxMail"

    /// A message to keep.
    public init(id: Int64? = nil, createdAt: Date, recipients: String, subject: String, message: Data,
                attempts: Int = 0, lastError: String? = nil, lastAttemptAt: Date? = nil, sentAt: Date? = nil) {
        self.id = id
        self.createdAt = createdAt
        self.recipients = recipients
        self.subject = subject
        self.message = message
        self.attempts = attempts
        self.lastError = lastError
        self.lastAttemptAt = lastAttemptAt
        self.sentAt = sentAt
    }

    /// Stores the row id after an insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
