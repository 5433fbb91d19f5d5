import Foundation
import Inventory
import TestSupport
import Testing

@Suite struct InventoryOutboxTests {
    @Test func aQueuedMessageWaitsWithItsBytesAndReason() throws {
        let inventory = try Inventory()
        let bytes = Array("To: a@example.org\n\nbody \u{FF}\n".utf8) + [0xFF, 0x00]
        let kept = try inventory.queueMail(recipients: ["a@example.org", "b@example.org"], subject: "Größe",
                                           message: bytes, attempts: 1, error: "sendmail missing")
        let id = try #require(kept.id)
        let pending = try inventory.pendingMail()
        #expect(pending.count == 1)
        #expect(pending[0].id == id)
        #expect(pending[0].recipients == "a@example.org, b@example.org")
        #expect(pending[0].subject == "Größe")
        #expect(Array(pending[0].message) == bytes)
        #expect(pending[0].attempts == 1)
        #expect(pending[0].lastError == "sendmail missing")
        #expect(pending[0].sentAt == nil)
    }

    @Test func failuresCountAttemptsAndSentMessagesStopWaiting() throws {
        let inventory = try Inventory()
        let first = try #require(try inventory.queueMail(recipients: ["a@x.org"], subject: "1", message: [1]).id)
        let second = try #require(try inventory.queueMail(recipients: ["b@x.org"], subject: "2", message: [2]).id)
        try inventory.recordMailFailure(id: first, error: "exit 75")
        try inventory.recordMailFailure(id: first, error: "exit 69")
        #expect(try inventory.pendingMail().first { $0.id == first }?.attempts == 2)
        #expect(try inventory.pendingMail().first { $0.id == first }?.lastError == "exit 69")
        try inventory.markMailSent(id: second)
        #expect(try inventory.pendingMail().map(\.id) == [first])
    }

    @Test func theOutboxSurvivesReopeningTheFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("essh.db")
        let id = try #require(try Inventory(path: path).queueMail(recipients: ["a@x.org"], subject: "s", message: [7]).id)
        #expect(try Inventory(path: path).pendingMail().map(\.id) == [id])
    }
}
