import Foundation
import Inventory
import Mail

/// The database's outbox table as Mail's `MailOutbox`. The database is opened only when needed (`open`), so a
/// command that sends at once never creates a database file.
public struct InventoryOutbox: MailOutbox {
    private let open: @Sendable () throws -> Inventory

    /// An outbox in the database `open` gives.
    public init(_ open: @escaping @Sendable () throws -> Inventory) {
        self.open = open
    }

    /// Keeps a message that failed.
    public func keep(_ mail: ComposedMail, attempts: Int, error: String) throws -> Int64 {
        let row = try open().queueMail(recipients: mail.recipients, subject: mail.subject, message: mail.bytes,
                                       attempts: attempts, error: error)
        return row.id ?? 0
    }

    /// The waiting messages, oldest first.
    public func pending() throws -> [PendingMail] {
        try open().pendingMail().map {
            PendingMail(id: $0.id ?? 0, recipients: $0.recipients, subject: $0.subject, bytes: Array($0.message),
                        attempts: $0.attempts, lastError: $0.lastError)
        }
    }

    /// Notes that a message was sent.
    public func markSent(id: Int64) throws { try open().markMailSent(id: id) }

    /// Notes a failed attempt.
    public func recordFailure(id: Int64, error: String) throws { try open().recordMailFailure(id: id, error: error) }
}
