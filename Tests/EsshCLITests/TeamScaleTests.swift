import Foundation
import Inventory
import Testing
import TestSupport

/// 20 members (each `essh` processes with a HOME and database of its own) syncing 10,000 shared servers while an
/// editor changes 100 of them: after a last sync each, every cache is the same, and every change is in it.
@Suite(.serialized) struct TeamScaleTests {
    typealias Home = TeamFixture.Home

    /// Runs `work` for each item, `width` at a time.
    private func concurrently<T: Sendable>(_ items: [T], width: Int, _ work: @escaping @Sendable (T) -> Void) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = width
        for item in items { queue.addOperation { work(item) } }
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func twentyMembersConvergeWhileAnEditorChangesAHundred() throws {
        let began = Date()
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor, pgpass: true)
        let members = try (0..<20).map { _ in try Home(team, team.member) }
        defer { editor.cleanup(); members.forEach { $0.cleanup() } }
        try editor.join(team)
        let joins = Results()
        let url = team.url(team.member)
        concurrently(members, width: 4) { member in
            joins.add(member.user, try? member.team(["join", url]))
        }
        #expect(joins.failures.isEmpty, "\(joins.failures)")
        try TeamFixture.bulkInsert(team, count: 10_000)
        #expect(try editor.sync().status == 0)

        // The editor changes 100 servers (srv97, srv194, …) through essh (each pushed at once: ~/.pgpass) while the
        // members sync.
        let changed = (1...100).map { "srv\($0 * 97)" }
        let edits = Results()
        let editing = Thread {
            for (i, name) in changed.enumerated() {
                edits.add(name, try? editor.essh(["servers", "edit", name, "--port", String(30_000 + i)]))
            }
        }
        editing.start()
        // The members sync in rounds, 4 processes at a time, for as long as the editor edits.
        let syncs = Results()
        let first = Date()
        var firstRound: TimeInterval?
        var rounds = 0
        repeat {
            concurrently(members, width: 4) { member in
                syncs.add(member.dir.path, try? member.sync())
            }
            firstRound = firstRound ?? Date().timeIntervalSince(first)
            rounds += 1
        } while !editing.isFinished
        #expect(edits.count == changed.count)
        #expect(edits.failures.isEmpty, "\(edits.failures.prefix(3))")
        #expect(syncs.failures.isEmpty, "\(syncs.failures.prefix(3))")
        // Nothing left queued: every edit was pushed when it was made.
        #expect(try editor.status().1["queued"] as? Int == 0)

        let last = Results()
        concurrently(members + [editor], width: 4) { home in
            last.add(home.dir.path, try? home.sync())
        }
        #expect(last.failures.isEmpty, "\(last.failures.prefix(3))")
        let revision = try team.sql("SELECT max(revision) FROM essh.servers")
        let snapshots = try members.map { try $0.snapshot() }
        let reference = try editor.snapshot()
        #expect(Set(snapshots).count == 1 && snapshots.first == reference, "every member holds the editor's cache")
        #expect(reference.contains("\"revision\":\(revision),"), "the team's last revision \(revision)")
        // No lost update: each of the 100 changes is in every member's list.
        let ports = try Dictionary(uniqueKeysWithValues: members[19].servers().compactMap { server in
            (server["name"] as? String).map { ($0, server["port"] as? Int ?? 0) }
        })
        #expect(ports.count == 10_000)
        for (i, name) in changed.enumerated() { #expect(ports[name] == 30_000 + i, "\(name)") }
        #expect(try team.sql("SELECT count(*) FROM essh.servers WHERE port >= 30000") == "100")
        print("TeamScaleTests: 20 members' first syncs of 10,000 servers (4 at a time) took "
              + String(format: "%.1f s; %d rounds of syncs during the 100 edits; the whole test %.1f s",
                       firstRound ?? 0, rounds, Date().timeIntervalSince(began)))
    }
}

/// Outcomes of concurrent `essh` runs, kept under a lock; a run that did not exit 0 is a failure.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var failed: [String] = []

    func add(_ label: String, _ result: RunResult?) {
        lock.withLock {
            done += 1
            if result?.status != 0 {
                failed.append("\(label): \(result.map { "\($0.status) \($0.out)\($0.err)" } ?? "did not run")")
            }
        }
    }

    var count: Int { lock.withLock { done } }
    var failures: [String] { lock.withLock { failed } }
}
