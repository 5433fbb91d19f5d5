import Operations
import AppCore
import Foundation
import Inventory
import Mail
import Synchronization
import Testing
import TestSupport
@testable import App

/// The mail worker against a fake transport and the outbox in an in-memory inventory.
@Suite("MailWorker")
struct MailWorkerTests {
    /// Records each message handed over, or fails with `failure`.
    final class FakeTransport: MailTransport {
        let failure: MailError?
        private let sent = Mutex<[[UInt8]]>([])
        var messages: [[UInt8]] { sent.withLock { $0 } }
        init(failure: MailError? = nil) { self.failure = failure }
        func send(_ message: [UInt8]) throws(MailError) {
            if let failure { throw failure }
            sent.withLock { $0.append(message) }
        }
    }

    private func mail() -> OutputMail {
        OutputMail(from: "me@example.org", to: ["ops@example.org"], subject: "essh: df -h on web1", report: nil,
                   output: Array("Filesystem\n".utf8), maxInline: 1_000, attachmentName: "essh-output.txt",
                   date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func aMailIsSentThroughTheTransport() throws {
        let transport = FakeTransport()
        let posted = Posted()
        let inventory = try Inventory()
        let worker = MailWorker(outbox: InventoryOutbox { inventory }, transport: { _ in transport }, post: posted.post)
        worker.send(mail(), sendmail: "/usr/sbin/sendmail")
        let messages = posted.wait { !$0.isEmpty }
        guard case .mailFinished(.success(.sent), let to)? = messages.first else {
            Issue.record("got \(messages)")
            return
        }
        #expect(to == ["ops@example.org"])
        #expect(String(decoding: transport.messages.first ?? [], as: UTF8.self).contains("Filesystem"))
    }

    @Test func aFailedMailIsKeptInTheOutboxAndARetrySendsIt() throws {
        let failing = FakeTransport(failure: MailError(.sendmailFailed, "exit 75", "sendmail could not deliver it."))
        let working = FakeTransport()
        let useFailing = Mutex(true)
        let posted = Posted()
        let inventory = try Inventory()
        let worker = MailWorker(outbox: InventoryOutbox { inventory },
                                transport: { _ in useFailing.withLock { $0 } ? failing : working }, post: posted.post)
        worker.send(mail(), sendmail: "/x")
        let queued = posted.wait { !$0.isEmpty }
        guard case .mailFinished(.success(.queued), _)? = queued.first else {
            Issue.record("got \(queued)")
            return
        }
        #expect(try inventory.pendingMail().count == 1)
        useFailing.withLock { $0 = false }
        worker.retry(sendmail: "/x")
        let retried = posted.wait { $0.count == 2 }
        guard case .mailRetried(let results, nil)? = retried.last else {
            Issue.record("got \(retried)")
            return
        }
        #expect(results.count == 1 && results.first?.error == nil)
        #expect(working.messages.count == 1)
        #expect(try inventory.pendingMail().isEmpty)
    }

    @Test func outputIsSavedToANewPrivateFileAndNeverOverAnExistingOne() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let posted = Posted()
        let inventory = try Inventory()
        let worker = MailWorker(outbox: InventoryOutbox { inventory }, transport: MailWorker.sendmail,
                                post: posted.post, home: dir.path)
        worker.save(Array("out\n".utf8), to: "~/saved.txt")
        worker.save(Array("again\n".utf8), to: "~/saved.txt")
        let messages = posted.wait { $0.count == 2 }
        guard case .outputSaved("~/saved.txt", nil)? = messages.first,
              case .outputSaved(_, let error?)? = messages.last else {
            Issue.record("got \(messages)")
            return
        }
        #expect(error.contains("already exists"))
        #expect(try String(contentsOfFile: dir.file("saved.txt"), encoding: .utf8) == "out\n")
    }
}
