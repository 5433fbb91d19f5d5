import Foundation
import Inventory
import LocalProcess
import Testing
import TestSupport

/// The team database away: eSSH works from its cache and queues an editor's edits; a sync killed with SIGKILL
/// leaves the cache as it was or fully synced. Each test has a cluster of its own (it is killed).
@Suite(.serialized) struct TeamOfflineTests {
    typealias Home = TeamFixture.Home

    @Test func theServerKilledMidSessionTheCacheServesAndTheEditWaits() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let team = try TeamFixture.makeTeam(cluster)
        let editor = try Home(team, team.editor, pgpass: true), member = try Home(team, team.member, pgpass: true)
        defer { editor.cleanup(); member.cleanup() }
        try editor.join(team)
        var r = try editor.essh(["servers", "add", "web1", "--host", "10.0.0.5", "--team"])
        // With ~/.pgpass the add is pushed at once.
        #expect(r.status == 0 && r.out.contains("1 edit pushed"), "\(r.out)\(r.err)")
        try member.join(team)
        #expect(try member.server("web1") != nil)

        cluster.kill9()
        for home in [member, editor] {
            let list = try home.essh(["servers", "list"])
            #expect(list.status == 0 && list.out.contains("web1"), "\(list.out)\(list.err)")
            let show = try home.essh(["servers", "show", "web1", "--json"])
            #expect(show.status == 0 && show.out.contains("10.0.0.5"), "\(show.err)")
            let (offline, status) = try home.status(offline: true)
            #expect(offline.status == 0 && status["servers"] as? Int == 1, "\(offline.out)\(offline.err)")
            let (online, reached) = try home.status(offline: false)
            #expect(online.status == 0 && reached["reachable"] as? Bool == false, "\(online.out)\(online.err)")
            let text = try home.essh(["team", "status", "--timeout", "3"])
            #expect(text.status == 0 && text.out.contains("unreachable"), "\(text.out)")
        }
        r = try editor.essh(["servers", "edit", "web1", "--port", "2200"])
        #expect(r.status == 0 && r.out.contains("Queued for the team"), "\(r.out)\(r.err)")
        #expect(try editor.server("web1")?["port"] as? Int == 2200, "the local row changed at once")
        let (_, queued) = try editor.status()
        #expect(queued["queued"] as? Int == 1, "\(queued)")
        r = try editor.team(["sync", "--timeout", "3"])
        #expect(r.status == 255 && r.err.contains("1 edit is queued"), "\(r.status) \(r.err)")

        try cluster.restart()
        r = try editor.sync()
        #expect(r.status == 0 && r.out.contains("1 edit pushed"), "\(r.out)\(r.err)")
        #expect(try editor.status().1["queued"] as? Int == 0)
        r = try member.sync()
        #expect(r.status == 0 && r.out.contains("1 changed"), "\(r.out)\(r.err)")
        #expect(try member.server("web1")?["port"] as? Int == 2200)
        #expect(try member.snapshot() == editor.snapshot())
        let (_, back) = try member.status(offline: false)
        #expect(back["reachable"] as? Bool == true && back["lastError"] == nil, "\(back)")
    }

    /// `essh team sync` killed with SIGKILL at several moments of a first sync of 10,000 servers: each time the
    /// member's cache is empty or complete, and the next sync makes it equal to an editor's.
    @Test func killNineDuringALargeFirstSyncLeavesAConsistentCache() throws {
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor)
        let fractions = [0.1, 0.3, 0.5, 0.7, 0.9]
        let members = try fractions.map { _ in try Home(team, team.member) }
        defer { editor.cleanup(); members.forEach { $0.cleanup() } }
        // Everyone joins the empty team; then 10,000 servers appear and each member's first sync gets them all.
        try editor.join(team)
        for member in members { try member.join(team) }
        try TeamFixture.bulkInsert(team, count: 10_000)
        let started = Date()
        var r = try editor.sync()
        let fullSync = Date().timeIntervalSince(started)
        #expect(r.status == 0 && r.out.contains("10000 added"), "\(r.out)\(r.err)")
        let reference = try editor.snapshot()
        let revision = try #require(try editor.status().1["revision"] as? Int)

        var killedMidway = 0
        for (member, fraction) in zip(members, fractions) {
            let pid = try member.startSync()
            usleep(useconds_t(fullSync * fraction * 1_000_000))
            kill(pid, SIGKILL)
            if ChildProcess.wait(pid, timeout: 30)?.shellStatus == 128 + SIGKILL { killedMidway += 1 }

            let count = try member.servers().count
            #expect(count == 0 || count == 10_000, "after SIGKILL at \(fraction): \(count) servers")
            let (offline, after) = try member.status()
            #expect(offline.status == 0, "\(offline.err)")
            #expect(after["servers"] as? Int == count)
            #expect(after["revision"] as? Int == (count == 0 ? 0 : revision), "\(after) with \(count) servers")
            r = try member.sync()
            #expect(r.status == 0, "\(r.out)\(r.err)")
            #expect(try member.servers().count == 10_000)
            #expect(try member.snapshot() == reference, "after SIGKILL at \(fraction)")
        }
        print("TeamOfflineTests: first sync of 10,000 servers took \(String(format: "%.2f", fullSync)) s; "
              + "\(killedMidway) of \(fractions.count) kills landed during a sync")
        #expect(killedMidway >= 2, "the kills landed during the sync \(killedMidway) times (full sync \(fullSync) s)")
    }

    /// `essh team sync` killed with SIGKILL while it pushes an editor's queued edits (each edit is its own server
    /// transaction; the cache learns of them at the end): the next sync pushes what is left, the edits already on
    /// the server are not conflicts or refusals, and nothing is lost.
    @Test func killNineWhilePushingLosesNoEditAndMakesNoConflict() throws {
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor), member = try Home(team, team.member)
        defer { editor.cleanup(); member.cleanup() }
        try editor.join(team)
        try member.join(team)
        try TeamFixture.bulkInsert(team, count: 3_000)
        #expect(try editor.sync().status == 0)
        // Queued (no password source but the file the sync is given): 1,500 removals, 5 changes, 3 new servers.
        let removed = (1...1_500).map { "srv\($0)" }
        var r = try editor.essh(["servers", "rm"] + removed)
        #expect(r.status == 0 && r.out.contains("Queued for the team"), "\(r.err)")
        for i in 1...5 {
            r = try editor.essh(["servers", "edit", "srv\(2_000 + i)", "--port", String(40_000 + i), "--tag", "moved"])
            #expect(r.status == 0, "\(r.err)")
        }
        for i in 1...3 {
            r = try editor.essh(["servers", "add", "new\(i)", "--host", "192.0.2.\(i)", "--team"])
            #expect(r.status == 0, "\(r.err)")
        }
        #expect(try editor.status().1["queued"] as? Int == 1_508)

        let pid = try editor.startSync()
        // Killed once some removals are on the server, before the push is over.
        var onServer = 0
        let deadline = Date().addingTimeInterval(30)
        while onServer == 0 && Date() < deadline {
            onServer = Int(try team.sql("SELECT count(*) FROM essh.servers WHERE deleted")) ?? 0
            if onServer == 0 { usleep(5_000) }
        }
        kill(pid, SIGKILL)
        #expect(ChildProcess.wait(pid, timeout: 30)?.shellStatus == 128 + SIGKILL, "killed during the sync")
        let pushedBeforeKill = Int(try team.sql("SELECT count(*) FROM essh.servers WHERE deleted")) ?? 0
        #expect(pushedBeforeKill > 0 && pushedBeforeKill < 1_500, "killed midway: \(pushedBeforeKill) removals pushed")

        // The cache as the editor left it: the edits shown, still queued.
        #expect(try editor.servers().count == 3_000 - 1_500 + 3)
        #expect(try editor.status().1["queued"] as? Int == 1_508)
        r = try editor.sync()
        #expect(r.status == 0 && !r.out.contains("conflict") && !r.out.contains("Not pushed"), "\(r.out)\(r.err)")
        #expect(try editor.status().1["queued"] as? Int == 0)
        #expect(try editor.essh(["team", "conflicts"]).out.contains("No conflicts."))
        #expect(try team.sql("SELECT count(*) FROM essh.servers WHERE deleted") == "1500")
        #expect(try team.sql("SELECT count(*) FROM essh.servers WHERE port > 40000 AND tags = 'moved'") == "5")
        #expect(try team.sql("SELECT count(*) FROM essh.servers WHERE name LIKE 'new%' AND NOT deleted") == "3")
        #expect(try member.sync().status == 0)
        #expect(try member.servers().count == 1_503)
        #expect(try member.snapshot() == editor.snapshot())
        print("TeamOfflineTests: the push was killed after \(pushedBeforeKill) of 1,508 edits reached the server")
    }

    /// While a member's first sync of 10,000 servers runs, the list is readable at once and never half applied.
    @Test func theListIsReadableDuringALargeSync() throws {
        let team = try TeamFixture.makeTeam()
        let member = try Home(team, team.member)
        defer { member.cleanup() }
        try member.join(team)
        try TeamFixture.bulkInsert(team, count: 10_000)
        let pid = try member.startSync()
        var counts: [Int] = []
        var slowest = 0.0
        while PostgresCluster.isAlive(pid) || counts.isEmpty {
            let started = Date()
            let r = try member.essh(["servers", "list", "--json"])
            slowest = max(slowest, Date().timeIntervalSince(started))
            #expect(r.status == 0, "\(r.err)")
            let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
            counts.append((object?["servers"] as? [Any])?.count ?? -1)
            if counts.count > 200 { break }
        }
        #expect(ChildProcess.wait(pid, timeout: 60)?.shellStatus == 0)
        #expect(counts.allSatisfy { $0 == 0 || $0 == 10_000 }, "\(counts)")
        #expect(try member.servers().count == 10_000)
        print("TeamOfflineTests: \(counts.count) lists during the sync (\(Set(counts).sorted())), slowest "
              + String(format: "%.2f s", slowest))
    }
}
