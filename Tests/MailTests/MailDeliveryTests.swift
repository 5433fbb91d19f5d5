import Foundation
@testable import Mail
import Testing

/// A transport that fails while `failing` is set, and records what it was given.
final class FakeTransport: MailTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var _failing: MailError?
    private var _sent: [[UInt8]] = []
    var failing: MailError? {
        get { lock.withLock { _failing } }
        set { lock.withLock { _failing = newValue } }
    }
    var sent: [[UInt8]] { lock.withLock { _sent } }

    func send(_ message: [UInt8]) throws(MailError) {
        if let error = failing { throw error }
        lock.withLock { _sent.append(message) }
    }
}

/// An in-memory outbox that can be made to fail.
final class FakeOutbox: MailOutbox, @unchecked Sendable {
    struct Broken: Error, CustomStringConvertible { var description = "disk full" }
    private let lock = NSLock()
    var broken = false
    var rows: [PendingMail] = []
    var sentIds: [Int64] = []

    func keep(_ mail: ComposedMail, attempts: Int, error: String) throws -> Int64 {
        try lock.withLock {
            if broken { throw Broken() }
            let id = Int64(rows.count + 1)
            rows.append(PendingMail(id: id, recipients: mail.recipients.joined(separator: ", "), subject: mail.subject,
                                    bytes: mail.bytes, attempts: attempts, lastError: error))
            return id
        }
    }
    func pending() throws -> [PendingMail] { lock.withLock { rows.filter { !sentIds.contains($0.id) } } }
    func markSent(id: Int64) throws { lock.withLock { sentIds.append(id) } }
    func recordFailure(id: Int64, error: String) throws {
        lock.withLock {
            if let i = rows.firstIndex(where: { $0.id == id }) {
                rows[i].attempts += 1
                rows[i].lastError = error
            }
        }
    }
}

@Suite struct MailDeliveryTests {
    let composed = try! OutputMail(from: "me@example.org", to: ["ops@example.org"], subject: "s", report: nil,
                                   output: Array("body\n".utf8)).compose()
    let refused = MailError(.sendmailFailed, "no route", "sendmail exited with status 75: no route.")

    @Test func aSentMessageIsNotKept() {
        let transport = FakeTransport(), outbox = FakeOutbox()
        #expect(MailDelivery(transport: transport, outbox: outbox).send(composed) == .sent)
        #expect(transport.sent == [composed.bytes])
        #expect(outbox.rows.isEmpty)
    }

    @Test func aFailedMessageIsKeptAndARetryDeliversIt() throws {
        let transport = FakeTransport(), outbox = FakeOutbox()
        transport.failing = refused
        let delivery = MailDelivery(transport: transport, outbox: outbox)
        #expect(delivery.send(composed) == .queued(id: 1, error: refused))
        #expect(outbox.rows.first?.bytes == composed.bytes)
        #expect(outbox.rows.first?.attempts == 1)

        let stillFailing = try delivery.retryPending()
        #expect(stillFailing.map(\.error) == [refused])
        #expect(outbox.rows.first?.attempts == 2)

        transport.failing = nil
        let retried = try delivery.retryPending()
        #expect(retried.count == 1 && retried[0].error == nil)
        #expect(transport.sent == [composed.bytes])
        #expect(try delivery.retryPending().isEmpty)
    }

    @Test func whenTheOutboxFailsTooTheMessageGoesToDeadLetter() throws {
        let transport = FakeTransport(), outbox = FakeOutbox()
        transport.failing = refused
        outbox.broken = true
        let path = NSTemporaryDirectory() + "essh-dead-\(UUID().uuidString)"
        defer { unlink(path) }
        let outcome = MailDelivery(transport: transport, outbox: outbox, deadLetterPath: path).send(composed)
        #expect(outcome == .saved(error: refused, outboxError: "disk full", savedTo: path))
        let saved = try #require(FileManager.default.contents(atPath: path))
        #expect(String(decoding: saved, as: UTF8.self).contains(String(decoding: composed.bytes, as: UTF8.self)))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func linesStartingWithFromAreEscapedInTheDeadLetterMbox() throws {
        let transport = FakeTransport(), outbox = FakeOutbox()
        transport.failing = refused
        outbox.broken = true
        let mail = ComposedMail(recipients: ["ops@example.org"], subject: "s", messageID: "<x@example.org>",
                                bytes: Array("To: ops@example.org\n\nFrom the start\n>From quoted\nnot From here\n".utf8),
                                attached: false)
        let path = NSTemporaryDirectory() + "essh-dead-\(UUID().uuidString)"
        defer { unlink(path) }
        _ = MailDelivery(transport: transport, outbox: outbox, deadLetterPath: path).send(mail)
        let saved = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let lines = saved.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("From essh "))
        #expect(lines.dropFirst().filter { $0.hasPrefix("From ") }.isEmpty)
        #expect(saved.contains("\n>From the start\n>From quoted\nnot From here\n"))
    }
}
