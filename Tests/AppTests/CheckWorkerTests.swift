import AppCore
import Foundation
import Inventory
import Reachability
import TestSupport
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

    /// A server behind a saved jump host is checked through it, as `essh check` does: t1 answers only inside b1's
    /// network namespace, so a direct check could not find it online.
    @Test func aServerBehindAJumpHostIsCheckedThroughIt() throws {
        let topology = try TestServers.require()
        let jump = topology.jump
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "b1", host: jump.b1.host, port: jump.b1.port, user: topology.user,
                                            auth: .key, keyPath: topology.keys + "/id_ed25519"))
        let t1 = try inventory.addServer(ServerDraft(name: "t1", host: jump.t1.host, port: jump.t1.port,
                                                     user: topology.user, jump: "b1"))
        try inventory.setSetting("ssh.known_hosts", to: jump.knownHosts)
        let id = try #require(t1.id)
        let posted = Posted()
        let worker = CheckWorker(inventory: inventory, post: posted.post,
                                 context: .init(savedServer: { try inventory.findServer(named: $0) }))
        worker.check([id: CheckTarget(host: jump.t1.host, port: jump.t1.port)], timeout: 5)
        let messages = posted.wait { $0.contains { if case .checkFinished = $0 { true } else { false } } }
        guard case .checkResult(let serverId, let status, _, _)? = messages.first else {
            Issue.record("got \(messages)")
            return
        }
        #expect(serverId == id && status == .online, "\(messages)")
    }
}
