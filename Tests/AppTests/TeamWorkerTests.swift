import AppCore
import Foundation
import Inventory
import Team
import TestSupport
import Testing
@testable import App

/// The interface's team worker against a real PostgreSQL (issue 18): another member's change reaches the posted
/// messages within a second (LISTEN/NOTIFY), a killed server is "unreachable" and its restart recovers, a missing
/// password is said, and quitting returns at once.
@Suite("Team worker (real PostgreSQL)", .serialized)
struct TeamWorkerTests {
    /// One cluster for the tests that do not kill theirs.
    private static let shared = Result { try PostgresCluster.start() }

    /// A team database in `cluster` with an editor and a member (their passwords), and a member's inventory linked
    /// to it.
    struct Team {
        let cluster: PostgresCluster
        let database: String
        let editor: String
        let member: String
        let passwords: [String: String]
        let folder: String
        let inventory: Inventory

        var memberURL: String { cluster.url(user: member, database: database) }

        func open(_ user: String) throws -> TeamDatabase {
            try TeamDatabase.open(url: cluster.url(user: user, database: database),
                                  password: Array(passwords[user, default: ""].utf8))
        }

        /// The member's password from the "vault", under the id `essh team sync` keeps it.
        var vault: TeamWorker.VaultPassword {
            let id = try! TeamURL(memberURL).vaultID
            let password = Array(passwords[member, default: ""].utf8)
            return { asked in asked == id ? password : nil }
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    static func makeTeam(in cluster: PostgresCluster, as role: TeamRole = .member) throws -> Team {
        let made = try PostgresTeam.make(on: cluster, prefix: "w")
        let database = made.database
        let folder = NSTemporaryDirectory() + "essh-teamworker-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let inventory = try Inventory(path: folder + "/essh.db")
        // The inventory's login: the member, or the editor playing "member" for an editor's inventory.
        let login = role == .member ? database + "_mem" : database + "_ed"
        try inventory.saveTeamLink(TeamLink(url: cluster.url(user: login, database: database), member: login,
                                            role: role))
        return Team(cluster: cluster, database: database, editor: made.editor, member: login,
                    passwords: made.passwords, folder: folder, inventory: inventory)
    }

    static func shared(_ name: String, host: String = "10.1.0.1") -> SharedServer {
        SharedServer(uid: UUID().uuidString.lowercased(), name: name, host: host, port: 22, user: "admin", jump: "",
                     tags: ["team"], os: "linux")
    }

    static func create(_ server: SharedServer, id: Int64 = 1) -> TeamEdit {
        TeamEdit(id: id, uid: server.uid, kind: .create, baseRevision: 0, base: [:], mine: server.values)
    }

    static let quick = TeamWorker.Timing(periodic: 60, firstRetry: 0.2, longestRetry: 1, connectTimeout: 3)

    /// A started worker on `team`'s inventory (its password from the test's "vault", quick retries) and what it
    /// posts; the caller stops it.
    static func startWorker(_ team: Team) -> (Posted, TeamWorker) {
        let posted = Posted()
        let worker = TeamWorker(inventory: team.inventory, post: posted.post, vaultPassword: team.vault,
                                timing: quick)
        worker.start()
        return (posted, worker)
    }

    /// The team statuses posted, oldest first, with whether rows changed.
    static func statuses(_ messages: [Message]) -> [(status: TeamStatus, changed: Bool)] {
        messages.compactMap { if case .team(let status, let changed) = $0 { (status, changed) } else { nil } }
    }

    @Test func anotherMembersNewServerReachesTheWorkersMessagesWithinASecond() throws {
        let team = try Self.makeTeam(in: Self.shared.get())
        defer { team.remove() }
        let editor = try team.open(team.editor)
        _ = try editor.push([Self.create(Self.shared("before"))])
        let (posted, worker) = Self.startWorker(team)
        defer { worker.stop() }
        let first = Self.statuses(posted.wait { !Self.statuses($0).isEmpty })
        #expect(first.first?.status.problem == nil, "\(first)")
        #expect(first.first?.changed == true, "the first sync brought 'before'")
        #expect(try team.inventory.findServer(named: "before")?.isShared == true)
        let seen = posted.all.count
        // Another member (the editor, on their own connection) adds a server: LISTEN/NOTIFY brings it.
        let added = Self.shared("added-by-ed", host: "10.1.0.2")
        let pushed = Date()
        _ = try editor.push([Self.create(added, id: 2)])
        let after = posted.wait(seconds: 5) { messages in
            Self.statuses(Array(messages.dropFirst(seen))).contains { $0.changed }
        }
        let elapsed = Date().timeIntervalSince(pushed)
        #expect(Self.statuses(Array(after.dropFirst(seen))).contains { $0.changed && $0.status.problem == nil })
        #expect(elapsed < 1, "the change took \(elapsed) s to arrive")
        #expect(try team.inventory.findServer(named: "added-by-ed")?.uid == added.uid)
        #expect(Self.statuses(after).last?.status.lastSync != nil)
    }

    /// An editor's change in the interface (the store saved it; Update asks `syncTeam`) is pushed at once.
    @Test func anEditorsLocalEditIsPushedWhenWoken() throws {
        let team = try Self.makeTeam(in: Self.shared.get(), as: .editor)
        defer { team.remove() }
        let editor = try team.open(team.editor)
        _ = try editor.push([Self.create(Self.shared("edited"))])
        let (posted, worker) = Self.startWorker(team)
        defer { worker.stop() }
        posted.wait { messages in Self.statuses(messages).contains { $0.changed } }
        #expect(try team.inventory.findServer(named: "edited") != nil)
        try team.inventory.updateServer(named: "edited", ServerChanges(host: "10.9.9.9"))
        #expect(try team.inventory.teamOutbox().count == 1)
        let woken = Date()
        worker.syncNow()
        let reader = try team.open(team.editor)
        var host: String?
        while Date().timeIntervalSince(woken) < 3 {
            host = try reader.pull(since: 0).servers.first { $0.name == "edited" }?.host
            if host == "10.9.9.9" { break }
            usleep(20_000)
        }
        #expect(host == "10.9.9.9", "pushed within \(Date().timeIntervalSince(woken)) s")
        #expect(Date().timeIntervalSince(woken) < 1)
        posted.wait(seconds: 3) { _ in (try? team.inventory.teamOutbox().isEmpty) == true }
        #expect(try team.inventory.teamOutbox().isEmpty)
    }

    @Test func aKilledServerIsUnreachableAndItsRestartRecovers() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let team = try Self.makeTeam(in: cluster)
        defer { team.remove() }
        let (posted, worker) = Self.startWorker(team)
        defer { worker.stop() }
        posted.wait { !Self.statuses($0).isEmpty }
        #expect(Self.statuses(posted.all).last?.status.problem == nil)
        cluster.kill9()
        let down = posted.wait(seconds: 10) { messages in
            if case .unreachable? = Self.statuses(messages).last?.status.problem { return true }
            return false
        }
        guard case .unreachable(let reason)? = Self.statuses(down).last?.status.problem else {
            Issue.record("no 'unreachable' after kill -9: \(Self.statuses(down).map(\.status.problem))")
            return
        }
        #expect(!reason.isEmpty)
        let lastSync = Self.statuses(down).last?.status.lastSync
        #expect(lastSync != nil, "the line still says when it last synced")
        #expect(Self.statuses(down).last?.status.line(now: Date()).contains("server unreachable") == true)
        try cluster.restart()
        let seen = posted.all.count
        let back = posted.wait(seconds: 15) { messages in
            Self.statuses(Array(messages.dropFirst(seen))).contains { $0.status.problem == nil }
        }
        #expect(Self.statuses(Array(back.dropFirst(seen))).contains { $0.status.problem == nil },
                "\(Self.statuses(Array(back.dropFirst(seen))).map(\.status.problem))")
        // Live again: a change after the restart arrives.
        let editor = try team.open(team.editor)
        let count = posted.all.count
        _ = try editor.push([Self.create(Self.shared("after-restart"))])
        posted.wait(seconds: 5) { Self.statuses(Array($0.dropFirst(count))).contains { $0.changed } }
        #expect(try team.inventory.findServer(named: "after-restart") != nil)
    }

    @Test func withoutAPasswordTheStatusSaysHowToGiveOne() throws {
        let team = try Self.makeTeam(in: Self.shared.get())
        defer { team.remove() }
        let posted = Posted()
        let worker = TeamWorker(inventory: team.inventory, post: posted.post, vaultPassword: { _ in nil },
                                timing: Self.quick)
        worker.start()
        defer { worker.stop() }
        let messages = posted.wait { !Self.statuses($0).isEmpty }
        #expect(Self.statuses(messages).first?.status.problem == .needsPassword)
        #expect(Self.statuses(messages).first?.status.line(now: Date())
            == "team: needs the database password — run essh team sync once")
    }

    @Test func quittingReturnsPromptlyWhileWaitingAndWhileRetrying() throws {
        let team = try Self.makeTeam(in: Self.shared.get())
        defer { team.remove() }
        let posted = Posted()
        // Waiting for a change (the period is a minute).
        let worker = TeamWorker(inventory: team.inventory, post: posted.post, vaultPassword: team.vault,
                                timing: TeamWorker.Timing(periodic: 60, firstRetry: 60, longestRetry: 60))
        worker.start()
        posted.wait { !Self.statuses($0).isEmpty }
        var started = Date()
        #expect(worker.stop(seconds: 5))
        #expect(Date().timeIntervalSince(started) < 0.5)
        // Pausing before a retry (a minute) after a failure.
        let retrying = TeamWorker(inventory: team.inventory, post: posted.post, vaultPassword: { _ in nil },
                                  timing: TeamWorker.Timing(periodic: 60, firstRetry: 60, longestRetry: 60))
        let count = posted.all.count
        retrying.start()
        posted.wait { Self.statuses(Array($0.dropFirst(count))).contains { $0.status.problem == .needsPassword } }
        started = Date()
        #expect(retrying.stop(seconds: 5))
        #expect(Date().timeIntervalSince(started) < 0.5)
    }

    @Test func aLocalWakeSyncsAtOnceAndAnUnlinkedInventoryIsLeftAlone() throws {
        let team = try Self.makeTeam(in: Self.shared.get())
        defer { team.remove() }
        let (posted, worker) = Self.startWorker(team)
        defer { worker.stop() }
        posted.wait { !Self.statuses($0).isEmpty }
        let count = posted.all.count
        worker.syncNow()
        let again = posted.wait(seconds: 3) { Self.statuses(Array($0.dropFirst(count))).count >= 1 }
        #expect(Self.statuses(Array(again.dropFirst(count))).count >= 1, "a wake made a sync (and a status)")

        let folder = NSTemporaryDirectory() + "essh-teamworker-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let personal = Posted()
        let idle = TeamWorker(inventory: try Inventory(path: folder + "/essh.db"), post: personal.post,
                              timing: Self.quick)
        idle.start()
        #expect(idle.stop(seconds: 2))
        #expect(personal.all.isEmpty)
    }
}
