/// Where messages that could not be sent wait (the database's outbox table in eSSH; a fake in unit tests).
public protocol MailOutbox: Sendable {
    /// Keeps `mail`, which failed `attempts` times (the last with `error`); returns its id.
    func keep(_ mail: ComposedMail, attempts: Int, error: String) throws -> Int64
    /// The waiting messages, oldest first.
    func pending() throws -> [PendingMail]
    /// Notes that message `id` was sent.
    func markSent(id: Int64) throws
    /// Notes another failed attempt on message `id`.
    func recordFailure(id: Int64, error: String) throws
}

/// A message waiting in the outbox.
public struct PendingMail: Sendable, Equatable {
    /// Its id in the outbox.
    public var id: Int64
    /// Its recipients, as listed.
    public var recipients: String
    /// Its subject.
    public var subject: String
    /// The whole message.
    public var bytes: [UInt8]
    /// Attempts so far.
    public var attempts: Int
    /// Why the last attempt failed.
    public var lastError: String?

    /// A waiting message.
    public init(id: Int64, recipients: String, subject: String, bytes: [UInt8], attempts: Int, lastError: String?) {
        self.id = id
        self.recipients = recipients
        self.subject = subject
        self.bytes = bytes
        self.attempts = attempts
        self.lastError = lastError
    }
}
