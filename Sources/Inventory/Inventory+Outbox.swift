import Foundation
import GRDB

/// The mail outbox: messages that could not be sent wait here until a retry delivers them.
extension Inventory {
    /// Keeps a message that could not be sent (`attempts` tries so far, the last failing with `error`); returns
    /// the stored row with its id.
    @discardableResult
    public func queueMail(recipients: [String], subject: String, message: [UInt8], attempts: Int = 0,
                          error: String? = nil, at date: Date = Date()) throws(InventoryError) -> OutboxMail {
        let time = date.databasePrecision
        var mail = OutboxMail(createdAt: time, recipients: recipients.joined(separator: ", "), subject: subject,
                              message: Data(message), attempts: attempts, lastError: error,
                              lastAttemptAt: attempts > 0 ? time : nil)
        try write { db in try mail.insert(db) }
        return mail
    }

    /// The messages still waiting, oldest first.
    public func pendingMail() throws(InventoryError) -> [OutboxMail] {
        try read { db in
            try OutboxMail.filter(OutboxMail.Columns.sentAt == nil).order(OutboxMail.Columns.id).fetchAll(db)
        }
    }

    /// Notes that the message `id` was sent (one more attempt, which worked).
    public func markMailSent(id: Int64, at date: Date = Date()) throws(InventoryError) {
        try write { db in
            try db.execute(sql: """
                UPDATE outboxMail SET sentAt = ?, lastAttemptAt = ?, attempts = attempts + 1, lastError = NULL
                WHERE id = ?
                """, arguments: [date.databasePrecision, date.databasePrecision, id])
        }
    }

    /// Notes a failed attempt to send the message `id`, and why.
    public func recordMailFailure(id: Int64, error: String, at date: Date = Date()) throws(InventoryError) {
        try write { db in
            try db.execute(sql: """
                UPDATE outboxMail SET attempts = attempts + 1, lastError = ?, lastAttemptAt = ? WHERE id = ?
                """, arguments: [error, date.databasePrecision, id])
        }
    }
}

extension Inventory {
    /// Removes message `id` from the outbox (one that can never be delivered); false when there was none.
    @discardableResult
    public func dropMail(id: Int64) throws(InventoryError) -> Bool {
        try write { db in try OutboxMail.deleteOne(db, key: id) }
    }
}
