import Foundation
import Inventory
import TestSupport
import Testing

/// Helpers shared by the team cache's tests.
enum TeamFixture {
    static let joined = Date(timeIntervalSince1970: 1_790_000_000)

    static func inventory(role: TeamRole = .editor, revision: Int64 = 0) throws -> Inventory {
        let inventory = try Inventory()
        try inventory.saveTeamLink(TeamLink(url: "postgres://ana@db.example.org/essh", member: "ana", role: role,
                                            revision: revision, joinedAt: joined))
        return inventory
    }

    static func shared(_ number: Int, name: String? = nil, port: Int = 22, revision: Int64 = 1,
                       deleted: Bool = false) -> SharedServer {
        SharedServer(uid: uid(number), name: name ?? "web\(number)", host: "10.0.\(number / 250).\(number % 250 + 1)",
                     port: port, user: "deploy", jump: "", tags: ["prod", "web"], os: "linux", revision: revision,
                     deleted: deleted, changedBy: "bob", changedAt: joined)
    }

    static func uid(_ number: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012d", number)
    }
}

@Suite struct TeamCacheApplyTests {
    @Test func newSharedServersGetPersonalDefaultsAndTheLinkMovesOn() throws {
        let inventory = try TeamFixture.inventory()
        let at = Date(timeIntervalSince1970: 1_790_000_100)
        let summary = try inventory.applyTeamChanges(
            TeamChanges(servers: [TeamFixture.shared(1), TeamFixture.shared(2, revision: 2)], revision: 2), at: at)
        #expect(summary.added == ["web1", "web2"])
        #expect(summary.changed.isEmpty && summary.removed.isEmpty && summary.renamed.isEmpty)
        let web1 = try inventory.server(named: "web1")
        #expect(web1.isShared && web1.teamRevision == 1)
        #expect(web1.uid == TeamFixture.uid(1))
        #expect(web1.host == "10.0.0.2" && web1.user == "deploy" && web1.tags == ["prod", "web"] && web1.os == .linux)
        #expect(web1.auth == .agent && web1.credential == .ask && web1.note == "" && web1.forwards.isEmpty)
        let link = try #require(try inventory.teamLink())
        #expect(link.revision == 2 && link.lastSync == at && link.lastError == nil)
        #expect(try inventory.teamBase(uid: TeamFixture.uid(2))?.revision == 2)
    }

    @Test func aChangeKeepsPersonalFieldsAndATombstoneRemovesTheRow() throws {
        let inventory = try TeamFixture.inventory()
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1), TeamFixture.shared(2)],
                                                   revision: 1))
        try inventory.updateServer(named: "web1", ServerChanges(auth: .key, keyPath: "~/.ssh/web", note: "mine",
                                                                credential: .vault))
        try inventory.recordIdentity(serverID: try #require(try inventory.server(named: "web1").id), "agent:SHA256:x")
        #expect(try inventory.teamOutbox().isEmpty)
        let summary = try inventory.applyTeamChanges(TeamChanges(
            servers: [TeamFixture.shared(1, name: "web1-new", port: 2222, revision: 3),
                      TeamFixture.shared(2, revision: 4, deleted: true)], revision: 4))
        #expect(summary.changed == ["web1-new"])
        #expect(summary.removed == ["web2"])
        let web1 = try inventory.server(named: "web1-new")
        #expect(web1.port == 2222 && web1.teamRevision == 3)
        #expect(web1.note == "mine" && web1.auth == .key && web1.keyPath == "~/.ssh/web" && web1.credential == .vault)
        #expect(web1.lastIdentity == "agent:SHA256:x")
        #expect(try inventory.findServer(named: "web2") == nil)
        #expect(try inventory.teamBase(uid: TeamFixture.uid(2))?.deleted == true)
        #expect(try inventory.teamCounts() == TeamCounts(shared: 1, outbox: 0, conflicts: 0))
    }

    @Test func twoServersSwappingNamesInOnePullBothApply() throws {
        let inventory = try TeamFixture.inventory()
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, name: "a"),
                                                             TeamFixture.shared(2, name: "b")], revision: 1))
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, name: "b", revision: 2),
                                                             TeamFixture.shared(2, name: "a", revision: 3)],
                                                   revision: 3))
        #expect(try inventory.server(named: "a").uid == TeamFixture.uid(2))
        #expect(try inventory.server(named: "b").uid == TeamFixture.uid(1))
    }

    @Test func aPersonalServerKeepsItsNameAndTheSharedOneIsListedWithTilde() throws {
        let inventory = try TeamFixture.inventory()
        try inventory.addServer(ServerDraft(name: "web1", host: "my.example.org"))
        let summary = try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1)], revision: 1))
        #expect(summary.renamed == [TeamRename(uid: TeamFixture.uid(1), teamName: "web1", localName: "web1~team")])
        #expect(summary.added == ["web1~team"])
        #expect(try inventory.server(named: "web1").host == "my.example.org")
        #expect(try inventory.server(named: "web1").isShared == false)
        #expect(try inventory.server(named: "web1~team").uid == TeamFixture.uid(1))
    }

    @Test func pendingEditsAreLaidOverAPull() throws {
        let inventory = try TeamFixture.inventory()
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1)], revision: 1))
        try inventory.updateServer(named: "web1", ServerChanges(port: 2200))
        // Another editor changed the host meanwhile: the pull brings it, the waiting port stays.
        var theirs = TeamFixture.shared(1, revision: 5)
        theirs.host = "10.9.9.9"
        try inventory.applyTeamChanges(TeamChanges(servers: [theirs], revision: 5))
        let web1 = try inventory.server(named: "web1")
        #expect(web1.host == "10.9.9.9")
        #expect(web1.port == 2200)
        #expect(try inventory.teamBase(uid: TeamFixture.uid(1))?.port == 22)
        #expect(try inventory.teamOutbox().map(\.mine) == [[.port: "2200"]])
    }

    @Test func pinsAndChecksAreStoredAndRemovedPinsGo() throws {
        let inventory = try TeamFixture.inventory()
        let pin = TeamPin(host: "web1", port: 22, keyType: "ssh-ed25519", key: "AAAAC3", fingerprint: "SHA256:abc",
                          pinnedBy: "bob", pinnedAt: TeamFixture.joined, revision: 1)
        var rsa = pin
        rsa.keyType = "ssh-rsa"
        let check = TeamCheck(serverUid: TeamFixture.uid(1), member: "carl", status: "online", latencyMs: 12.5,
                              checkedAt: TeamFixture.joined)
        let summary = try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1)], pins: [pin, rsa],
                                                                 checks: [check], revision: 1))
        #expect(summary.pins == 2 && summary.checks == 1)
        #expect(try inventory.teamPins(host: "web1", port: 22) == [pin, rsa])
        #expect(try inventory.teamPins(host: "web1", port: 2222).isEmpty)
        #expect(try inventory.teamChecks(serverUid: TeamFixture.uid(1)) == [check])
        #expect(try inventory.teamChecksByServer() == [TeamFixture.uid(1): [check]])
        rsa.deleted = true
        rsa.revision = 2
        try inventory.applyTeamChanges(TeamChanges(pins: [rsa], revision: 2))
        #expect(try inventory.teamPins(host: "web1", port: 22) == [pin])
    }

    @Test func aFailingApplyLeavesTheCacheAsItWas() throws {
        let inventory = try TeamFixture.inventory()
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1)], revision: 1))
        let before = try inventory.teamSnapshot()
        let serversBefore = try inventory.servers()
        // The third row is bad: the first two were already written when it is met.
        let bad = TeamFixture.shared(3, name: "bad name")
        #expect {
            try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, port: 2222, revision: 2),
                                                                 TeamFixture.shared(2, revision: 3), bad],
                                                       revision: 4))
        } throws: { error in
            (error as? InventoryError)?.kind == .invalidValue
                && (error as? InventoryError)?.message.contains("nothing of this sync was applied") == true
        }
        #expect(try inventory.teamSnapshot() == before)
        #expect(try inventory.servers() == serversBefore)
        #expect(try inventory.teamLink()?.revision == 1)
    }

    @Test func applyingWithoutALinkIsRefused() throws {
        let inventory = try Inventory()
        #expect(throws: InventoryError.self) {
            try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1)], revision: 1))
        }
        #expect(try inventory.serverCount() == 0)
    }

    @Test func aFailedSyncIsNotedAndTheRevisionStays() throws {
        let inventory = try TeamFixture.inventory(revision: 7)
        let at = Date(timeIntervalSince1970: 1_790_000_500)
        try inventory.noteTeamSyncFailure("server unreachable", at: at)
        let link = try #require(try inventory.teamLink())
        #expect(link.revision == 7 && link.lastAttempt == at && link.lastError == "server unreachable")
        #expect(link.lastSync == nil)
    }

    @Test func snapshotsOfTwoCachesAtTheSameRevisionAreEqual() throws {
        let first = try TeamFixture.inventory()
        let second = try TeamFixture.inventory(role: .member)
        let servers = (1...5).map { TeamFixture.shared($0, revision: Int64($0)) }
        try first.applyTeamChanges(TeamChanges(servers: servers, revision: 5))
        try second.applyTeamChanges(TeamChanges(servers: Array(servers.prefix(3)), revision: 3))
        #expect(try first.teamSnapshot() != second.teamSnapshot())
        try second.addServer(ServerDraft(name: "web4", host: "mine.example.org"))
        try second.applyTeamChanges(TeamChanges(servers: Array(servers.suffix(2)), revision: 5))
        #expect(try first.teamSnapshot() == second.teamSnapshot())
        #expect(try first.teamSnapshot().contains("\"revision\":5"))
    }

    @Test func leavingRemovesSharedServersOrKeepsThemAsPersonal() throws {
        for keep in [false, true] {
            let inventory = try TeamFixture.inventory()
            try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1), TeamFixture.shared(2)],
                                                       revision: 2))
            try inventory.addServer(ServerDraft(name: "own", host: "own.example.org"))
            try inventory.addServer(ServerDraft(name: "new", host: "new.example.org"), team: true)
            #expect(try inventory.leaveTeam(keepCopies: keep) == (keep ? 3 : 2))
            #expect(try inventory.teamLink() == nil)
            #expect(try inventory.teamCounts() == TeamCounts(shared: 0, outbox: 0, conflicts: 0))
            #expect(try inventory.servers().map(\.name) == (keep ? ["new", "own", "web1", "web2"] : ["new", "own"]))
            #expect(try inventory.teamBase(uid: TeamFixture.uid(1)) == nil)
            #expect(throws: InventoryError.self) { try inventory.leaveTeam(keepCopies: keep) }
        }
    }

    @Test func tenThousandServersApplyInOnePull() throws {
        let inventory = try TeamFixture.inventory()
        let servers = (1...10_000).map { TeamFixture.shared($0, revision: Int64($0)) }
        let started = Date()
        let summary = try inventory.applyTeamChanges(TeamChanges(servers: servers, revision: 10_000))
        let first = Date().timeIntervalSince(started)
        #expect(summary.added.count == 10_000)
        #expect(try inventory.teamCounts().shared == 10_000)
        let changed = (1...10).map { TeamFixture.shared($0 * 997, port: 2222, revision: Int64(10_000 + $0)) }
        let again = Date()
        #expect(try inventory.applyTeamChanges(TeamChanges(servers: changed, revision: 10_010)).changed.count == 10)
        let incremental = Date().timeIntervalSince(again)
        // Timing is reported, not asserted (debug builds and loaded machines differ).
        print("team apply: 10,000 servers \(Int(first * 1000)) ms, 10 changes \(Int(incremental * 1000)) ms")
    }
}
