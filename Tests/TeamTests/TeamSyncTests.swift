import Foundation
import Inventory
import Team
import Testing
import TestSupport

/// Members' caches synchronised with a real team database (TestSupport's PostgreSQL): edits made through the
/// inventory, pushed and pulled by `TeamSync`, offline moments, conflicts kept for the editor, refusals undone.
@Suite struct TeamSyncTests {
    /// A member's own inventory (in memory), linked to the team as `user`.
    struct Member {
        let user: String
        let inventory: Inventory
        let team: TeamCluster.Team

        init(_ user: String, of team: TeamCluster.Team) throws {
            self.user = user
            self.team = team
            inventory = try Inventory()
            let database = try team.open(user)
            try inventory.saveTeamLink(TeamLink(url: team.url(user), member: user, role: database.role))
            _ = try TeamSync.run(database, inventory: inventory)
        }

        @discardableResult
        func sync() throws -> TeamSync.Report { try TeamSync.run(try team.open(user), inventory: inventory) }

        func server(_ name: String) throws -> Server { try inventory.server(named: name) }
    }

    @Test func anEditorsServerReachesEveryMemberWithTheirOwnFieldsKept() throws {
        let team = try TeamCluster.makeTeam()
        let ana = try Member(team.editor, of: team)
        let bob = try Member(team.member, of: team)
        try ana.inventory.addServer(ServerDraft(name: "web1", host: "10.0.0.1", port: 2200, user: "admin",
                                                tags: ["prod", "web"]), team: true)
        let pushed = try ana.sync()
        #expect(pushed.pushed == 1)
        #expect(try ana.server("web1").teamRevision ?? 0 > 0)

        // bob keeps a note of his own on it; a later change by ana keeps bob's note.
        #expect(try bob.sync().applied.added == ["web1"])
        _ = try bob.inventory.updateServer(named: "web1", ServerChanges(note: "bob's runbook"))
        _ = try ana.inventory.updateServer(named: "web1", ServerChanges(port: 2222))
        try ana.sync()
        #expect(try bob.sync().applied.changed == ["web1"])
        let seen = try bob.server("web1")
        #expect(seen.port == 2222 && seen.user == "admin" && seen.tags == ["prod", "web"])
        #expect(seen.note == "bob's runbook")
        #expect(try bob.inventory.teamSnapshot() == ana.inventory.teamSnapshot())

        // A removal reaches bob too.
        try ana.inventory.removeServer(named: "web1")
        try ana.sync()
        #expect(try bob.sync().applied.removed == ["web1"])
        #expect(try bob.inventory.findServer(named: "web1") == nil)
    }

    @Test func offlineEditsAreQueuedAndPushedWhenTheServerIsBack() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let team = try TeamCluster.makeTeam(on: cluster)
        let ana = try Member(team.editor, of: team)
        let bob = try Member(team.member, of: team)
        try ana.inventory.addServer(ServerDraft(name: "db1", host: "10.0.0.5"), team: true)
        try ana.sync()
        try bob.sync()

        cluster.kill9()
        // Offline: the cache still lists and edits; the sync fails as an offline moment and says so in the link.
        _ = try ana.inventory.updateServer(named: "db1", ServerChanges(port: 5433))
        #expect(try ana.inventory.teamCounts().outbox == 1)
        let offline = #expect(throws: TeamError.self) { try ana.sync() }
        #expect(offline?.isOffline == true)
        #expect(try bob.inventory.server(named: "db1").port == 22)

        try cluster.restart()
        let back = try ana.sync()
        #expect(back.pushed == 1)
        #expect(try ana.inventory.teamCounts().outbox == 0)
        try bob.sync()
        #expect(try bob.server("db1").port == 5433)
    }

    @Test func aConflictIsKeptForTheSecondEditorAndSettledEitherWay() throws {
        let team = try TeamCluster.makeTeam()
        let ana = try Member(team.editor, of: team)
        let eve = try Member(team.editor2, of: team)
        try ana.inventory.addServer(ServerDraft(name: "db1", host: "10.0.0.5", port: 5432), team: true)
        try ana.sync()
        try eve.sync()

        _ = try ana.inventory.updateServer(named: "db1", ServerChanges(port: 6432))
        _ = try eve.inventory.updateServer(named: "db1", ServerChanges(host: "db1.example.org", port: 7432))
        try ana.sync()
        let report = try eve.sync()
        #expect(report.conflicts.map(\.field) == [.port])
        let conflict = try #require(try eve.inventory.teamConflicts().first)
        #expect(conflict.base == "5432" && conflict.mine == "7432" && conflict.theirs == "6432")
        #expect(conflict.theirsBy == team.editor)
        // The host (ana did not touch it) went in; the list shows the team's port until eve chooses.
        #expect(try ana.sync().applied.changed == ["db1"])
        #expect(try ana.server("db1").host == "db1.example.org")
        #expect(try eve.server("db1").port == 6432)

        try eve.inventory.resolveTeamConflict(uid: conflict.uid, field: .port, keepMine: true)
        #expect(try eve.sync().pushed == 1)
        try ana.sync()
        #expect(try ana.server("db1").port == 7432)
        #expect(try ana.inventory.teamSnapshot() == eve.inventory.teamSnapshot())
    }

    @Test func anEditRefusedByTheServerIsUndoneAndSaid() throws {
        let team = try TeamCluster.makeTeam()
        let ana = try Member(team.editor, of: team)
        try ana.inventory.addServer(ServerDraft(name: "web1", host: "10.0.0.1"), team: true)
        try ana.sync()
        // The administrator takes ana's editor right away while her edit waits.
        _ = try ana.inventory.updateServer(named: "web1", ServerChanges(port: 2022))
        try team.cluster.psql("REVOKE \(TeamSchema.editorRole) FROM \(team.editor); "
            + "GRANT \(TeamSchema.memberRole) TO \(team.editor);")
        let report = try ana.sync()
        #expect(report.refused.map(\.name) == ["web1"])
        #expect(report.refused.first?.reason.kind == .permission)
        #expect(try ana.server("web1").port == 22)
        #expect(try ana.inventory.teamLink()?.role == .member)
        #expect(try ana.inventory.teamCounts().outbox == 0)
    }

    @Test func publishedChecksReachOtherMembersOnlyWhenOptedIn() throws {
        let team = try TeamCluster.makeTeam()
        let ana = try Member(team.editor, of: team)
        let bob = try Member(team.member, of: team)
        try ana.inventory.addServer(ServerDraft(name: "web1", host: "10.0.0.1"), team: true)
        try ana.sync()
        try bob.sync()
        let web1 = try bob.server("web1")
        let when = Date()
        try bob.inventory.recordCheckResults([CheckResult(serverId: try #require(web1.id), status: .online,
                                                          latencyMs: 1.5, banner: nil, error: nil,
                                                          checkedAt: when)])
        #expect(try bob.sync().published == 0)
        try ana.sync()
        #expect(try ana.inventory.teamChecks(serverUid: web1.uid).isEmpty)

        var link = try #require(try bob.inventory.teamLink())
        link.publishChecks = true
        try bob.inventory.saveTeamLink(link)
        #expect(try bob.sync().published == 1)
        // Published once: later syncs publish nothing, and the team's revision stays (no member is woken for it).
        let revision = try bob.sync().revision
        #expect(try bob.sync().published == 0)
        #expect(try bob.sync().revision == revision)
        try ana.sync()
        let seen = try ana.inventory.teamChecks(serverUid: web1.uid)
        #expect(seen.map(\.member) == [team.member])
        #expect(seen.first?.status == "online")
    }
}
