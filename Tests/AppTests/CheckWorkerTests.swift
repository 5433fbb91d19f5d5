import AppCore
import Foundation
import Inventory
import Reachability
import Testing
@testable import App

/// The check worker: a real check of a closed loopback port (nothing leaves the machine), results posted one by
/// one and recorded in an in-memory inventory.
@Suite("CheckWorker")
struct CheckWorkerTests {
    @Test func eachResultIsPostedThenAllAreRecorded() throws {
        let inventory = try Inventory()
        let server = try inventory.addServer(ServerDraft(name: "closed", host: "127.0.0.1", port: 1, user: nil))
        let id = try #require(server.id)
        let posted = Posted()
        let worker = CheckWorker(inventory: inventory, post: posted.post)
        worker.check([id: CheckTarget(host: "127.0.0.1", port: 1)], timeout: 2)
        let messages = posted.wait { $0.contains { if case .checkFinished = $0 { true } else { false } } }
        guard case .checkResult(let serverId, let status, _, _)? = messages.first else {
            Issue.record("got \(messages)")
            return
        }
        #expect(serverId == id && status == .refused)
        guard case .checkFinished(let error, _)? = messages.last else {
            Issue.record("got \(messages)")
            return
        }
        #expect(error == nil)
        #expect(try inventory.lastCheckResults()[id]?.status == .refused)
    }
}
