import AppCore
import Foundation
import Inventory
import Operations
import SSH
import TestSupport
import Testing
@testable import App

/// The team's pinned host keys (issue 18) reach the connections the interface makes: `LiveEffects` builds the
/// lookup once over the inventory's cache and every worker's connection options carry the pins of their host.
@Suite("Team pins in the interface")
struct TeamWorkerPinsTests {
    static let pin = TeamPin(host: "127.0.0.1", port: 2200, keyType: "ssh-ed25519",
                             key: "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
                             fingerprint: "SHA256:oZbCJBXbgkfQEgtT7Kh2ffbWy9lrvu3F8Y8nXqu9G1o", pinnedBy: "ed_role",
                             pinnedAt: Date(timeIntervalSince1970: 1_790_000_000), revision: 3)

    /// An inventory linked to a team database nobody listens on, with one shared server on 127.0.0.1:2200 and a
    /// pin for it (as a pull leaves them).
    static func linkedInventory(_ dir: TempDir) throws -> Inventory {
        let inventory = try Inventory(path: dir.file("essh.db"))
        try inventory.saveTeamLink(TeamLink(url: "postgres://mem@127.0.0.1:1/team", member: "mem", role: .member))
        let server = SharedServer(uid: UUID().uuidString.lowercased(), name: "pinned", host: "127.0.0.1", port: 2200,
                                  user: "admin", jump: "", tags: [], os: "linux", revision: 2, changedBy: "ed_role")
        _ = try inventory.applyTeamChanges(TeamChanges(servers: [server], pins: [pin], revision: 3))
        return inventory
    }

    @Test func aSessionFromTheListCarriesTheTeamsPinOfItsHost() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Self.linkedInventory(dir)
        let opener = SessionWorkerTests.FakeOpener(session: SessionWorkerTests.FakeSession())
        let live = LiveEffects(inventory: inventory, queue: MessageQueue(waker: MessageQueueTests.CountingWaker()),
                               environment: ["HOME": dir.path, "XDG_STATE_HOME": dir.file("state")],
                               localUser: "me", opener: opener)
        defer { live.finish() }
        let server = try #require(try inventory.findServer(named: "pinned"))
        live.run(.connect(ConnectionProfile(server: server), knownHosts: "", keepalive: 0))
        let deadline = Date().addingTimeInterval(5)
        while opener.opened.withLock({ $0.isEmpty }) && Date() < deadline { usleep(5_000) }
        let options = try #require(opener.opened.withLock { $0.first })
        #expect(options.pinnedHostKeys.map(\.fingerprint) == [Self.pin.fingerprint])
        #expect(options.pinnedHostKeys.first?.pinnedBy == "ed_role")
    }

    @Test func fleetAndSessionOptionsCarryThePinsTheyAreGiven() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Self.linkedInventory(dir)
        let server = try #require(try inventory.findServer(named: "pinned"))
        let profile = ConnectionProfile(server: server)
        let pins = TeamPins.lookup(inventory)
        let environment = ["HOME": dir.path]
        let fleet = FleetWorker.connectOptions([profile], knownHosts: "", environment: environment, localUser: "me",
                                               hostKeyPins: pins)
        #expect((try? fleet.first?.get())?.pinnedHostKeys.map(\.key) == [Self.pin.key])
        let session = SessionWorker.connectOptions(profile, knownHosts: "", environment: environment, localUser: "me",
                                                   hostKeyPins: pins).0
        #expect(session.pinnedHostKeys.map(\.type) == ["ssh-ed25519"])
        // Another host: no pins, the known_hosts rules as before.
        var other = profile
        other.port = 2201
        let unpinned = SessionWorker.connectOptions(other, knownHosts: "", environment: environment, localUser: "me",
                                                    hostKeyPins: pins).0
        #expect(unpinned.pinnedHostKeys.isEmpty)
    }
}
