import Basics
import Foundation
import LocalProcess

/// Sends through a transport and never loses a message: what cannot be sent goes into the outbox, and when even
/// the outbox cannot take it, the message is appended to ~/dead.letter as `mail` does.
public struct MailDelivery: Sendable {
    /// How one message fared.
    public enum Outcome: Sendable, Equatable {
        /// Handed to the mail system.
        case sent
        /// Not sent (`error` says why); kept in the outbox under `id`.
        case queued(id: Int64, error: MailError)
        /// Not sent, and the outbox failed too (`outboxError`); the message was saved to `savedTo`, or nowhere.
        case saved(error: MailError, outboxError: String, savedTo: String?)
    }

    /// The result of retrying one waiting message.
    public struct Retry: Sendable, Equatable {
        /// The message retried.
        public var mail: PendingMail
        /// nil when it was sent; otherwise why not (it stays in the outbox).
        public var error: MailError?

        /// The outcome of retrying `mail`.
        public init(mail: PendingMail, error: MailError?) {
            self.mail = mail
            self.error = error
        }
    }

    /// What delivers messages.
    public var transport: any MailTransport
    /// Where failed messages wait.
    public var outbox: any MailOutbox
    /// The last resort when the outbox fails.
    public var deadLetterPath: String

    /// Delivery through `transport`, keeping failures in `outbox`.
    public init(transport: any MailTransport, outbox: any MailOutbox,
                deadLetterPath: String = NSHomeDirectory() + "/dead.letter") {
        self.transport = transport
        self.outbox = outbox
        self.deadLetterPath = deadLetterPath
    }

    /// Sends `mail` once; on failure keeps it.
    public func send(_ mail: ComposedMail) -> Outcome {
        do throws(MailError) {
            try transport.send(mail.bytes)
            return .sent
        } catch {
            do {
                let id = try outbox.keep(mail, attempts: 1, error: error.description)
                return .queued(id: id, error: error)
            } catch let outboxError {
                let saved = appendDeadLetter(mail.bytes)
                return .saved(error: error, outboxError: UserFacing.sentence(outboxError),
                              savedTo: saved ? deadLetterPath : nil)
            }
        }
    }

    /// Tries every waiting message once, oldest first, noting each outcome in the outbox.
    public func retryPending() throws -> [Retry] {
        try outbox.pending().map { mail in
            do throws(MailError) {
                try transport.send(mail.bytes)
                try? outbox.markSent(id: mail.id)
                return Retry(mail: mail, error: nil)
            } catch {
                try? outbox.recordFailure(id: mail.id, error: error.description)
                return Retry(mail: mail, error: error)
            }
        }
    }

    /// `bytes` with ">" before every line that starts with "From ", which in an mbox would start a new message.
    static func mboxEscaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var atLineStart = true
        for (index, byte) in bytes.enumerated() {
            if atLineStart && bytes[index...].starts(with: "From ".utf8) { out.append(UInt8(ascii: ">")) }
            out.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        return out
    }

    /// Appends the message, mbox-style, to the dead-letter file (created private); false when that fails too.
    private func appendDeadLetter(_ bytes: [UInt8]) -> Bool {
        let fd = open(deadLetterPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let record = Array("From essh \(MailDate.format(Date()))\n".utf8) + Self.mboxEscaped(bytes) + [UInt8(ascii: "\n")]
        return record.withUnsafeBytes { writeAll(fd, $0) }
    }
}
