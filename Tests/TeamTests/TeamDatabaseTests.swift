import Foundation
import Inventory
import Team
import Testing
import TestSupport

/// The team database's operations against a real PostgreSQL (TestSupport's throwaway cluster): the schema and its
/// versions, the roles PostgreSQL enforces, pushes with their conflicts, pulls, pins, published checks, LISTEN.
@Suite struct TeamDatabaseTests {
    @Test func initMakesTheSchemaOnceAndTheRolesDecideWhoIsWho() throws {
        let team = try TeamCluster.makeTeam()
        let admin = try PGConnection.connect(url: team.url("postgres"), password: Array(team.cluster.password.utf8))
        #expect(try TeamSchema.installedVersion(on: admin) == TeamSchema.version)
        let again = try TeamSchema.install(on: admin)
        #expect(again.from == TeamSchema.version && again.to == TeamSchema.version)
        #expect(try team.open(team.editor).role == .editor)
        #expect(try team.open(team.member).role == .member)
    }

    @Test func aRoleOutsideTheTeamIsToldWhatToAsk() throws {
        let team = try TeamCluster.makeTeam()
        try team.cluster.createRole(team.database + "_out", password: "outsider-pw")
        let error = #expect(throws: TeamError.self) {
            try TeamDatabase.open(url: team.url(team.database + "_out"), password: Array("outsider-pw".utf8))
        }
        #expect(error?.kind == .notInTeam)
        #expect(error?.message.contains("GRANT essh_members TO \(team.database)_out") == true)
    }

    @Test func aDatabaseWithoutTheSchemaAndANewerSchemaAreRefused() throws {
        let bare = try TeamCluster.makeTeam(initialise: false)
        let none = #expect(throws: TeamError.self) {
            try TeamDatabase.open(url: bare.url("postgres"), password: Array(bare.cluster.password.utf8))
        }
        #expect(none?.kind == .noSchema)
        #expect(none?.message.contains("essh team init") == true)

        let team = try TeamCluster.makeTeam()
        try team.cluster.psql("UPDATE essh.meta SET value = '99' WHERE key = 'schema_version';",
                              database: team.database)
        let newer = #expect(throws: TeamError.self) { try team.open(team.editor) }
        #expect(newer?.kind == .schemaTooNew)
        #expect(newer?.message.contains("version 99") == true)
        let admin = try PGConnection.connect(url: team.url("postgres"), password: Array(team.cluster.password.utf8))
        let refused = #expect(throws: TeamError.self) { try TeamSchema.install(on: admin) }
        #expect(refused?.kind == .schemaTooNew)
        #expect(try team.cluster.psql("SELECT value FROM essh.meta WHERE key = 'schema_version';",
                                      database: team.database) == "99")
    }

    @Test func badURLsAndWrongPasswordsAreSentences() throws {
        let team = try TeamCluster.makeTeam()
        let withPassword = #expect(throws: TeamError.self) {
            try TeamDatabase.open(url: "postgres://ana:secret@127.0.0.1:\(team.cluster.port)/\(team.database)")
        }
        #expect(withPassword?.kind == .badURL)
        #expect(withPassword?.message.contains("holds a password") == true)
        #expect(withPassword?.message.contains("secret") == false)

        let garbage = #expect(throws: TeamError.self) { try TeamDatabase.open(url: "postgres://[::1/x") }
        #expect(garbage?.kind == .badURL)
        let noDatabase = #expect(throws: TeamError.self) { try TeamDatabase.open(url: "postgres://ana@127.0.0.1") }
        #expect(noDatabase?.kind == .badURL)

        let wrong = #expect(throws: TeamError.self) {
            try TeamDatabase.open(url: team.url(team.editor), password: Array("not the password".utf8))
        }
        #expect(wrong?.kind == .authenticationFailed)
        #expect(wrong?.message.contains("password authentication failed") == true)

        let none = #expect(throws: TeamError.self) { try TeamDatabase.open(url: team.url(team.editor)) }
        #expect(none?.kind == .needsPassword, "\(String(describing: none))")

        // Nothing listens on the port: an offline moment, not a refusal.
        let closed = #expect(throws: TeamError.self) {
            try TeamDatabase.open(url: "postgres://ana@127.0.0.1:1/essh", timeout: 3)
        }
        #expect(closed?.kind == .connect)
        #expect(closed?.isOffline == true)
    }

    @Test func aMemberCannotChangeSharedRowsAndIsToldWhy() throws {
        let team = try TeamCluster.makeTeam()
        let editor = try team.open(team.editor)
        let web1 = TeamCluster.server("web1")
        #expect(try editor.push([TeamCluster.create(web1)]).applied == [1])

        let member = try team.open(team.member)
        let pulled = try member.pull(since: 0)
        #expect(pulled.servers.map(\.name) == ["web1"])
        var edit = TeamEdit(id: 7, uid: web1.uid, kind: .update, baseRevision: pulled.servers[0].revision,
                            base: [.port: "22"], mine: [.port: "2222"])
        let outcome = try member.push([edit])
        #expect(outcome.applied.isEmpty)
        #expect(outcome.refused[7]?.kind == .permission)
        #expect(outcome.refused[7]?.message.contains("not an editor") == true)
        edit.kind = .create
        edit.uid = UUID().uuidString.lowercased()
        edit.mine = TeamCluster.server("sneaky").values
        #expect(try member.push([edit]).refused[7]?.kind == .permission)
        #expect(try member.pull(since: 0).servers.map(\.port) == [22])
        let pin = #expect(throws: TeamError.self) {
            try member.pin(TeamPin(host: "10.0.0.1", port: 22, keyType: "ssh-ed25519", key: "AAAA", fingerprint: "x"))
        }
        #expect(pin?.kind == .permission)
    }

    /// Two editors, ana and bob, and a server db1 (port 5432) ana added, as bob first pulled it.
    private func twoEditorsAndOneServer() throws
        -> (team: TeamCluster.Team, ana: TeamDatabase, bob: TeamDatabase, db1: SharedServer, base: SharedServer) {
        let team = try TeamCluster.makeTeam()
        let ana = try team.open(team.editor)
        let bob = try team.open(team.editor2)
        let db1 = TeamCluster.server("db1", port: 5432)
        _ = try ana.push([TeamCluster.create(db1)])
        return (team, ana, bob, db1, try bob.pull(since: 0).servers[0])
    }

    @Test func twoEditorsChangingDifferentFieldsAreBothKept() throws {
        let (team, ana, bob, db1, base) = try twoEditorsAndOneServer()

        // Both edit from the same base: ana the port, bob the host.
        let anaEdit = TeamEdit(id: 1, uid: db1.uid, kind: .update, baseRevision: base.revision,
                               base: [.port: "5432"], mine: [.port: "6432"])
        let bobEdit = TeamEdit(id: 1, uid: db1.uid, kind: .update, baseRevision: base.revision,
                               base: [.host: "10.0.0.1"], mine: [.host: "db1.example.org"])
        #expect(try ana.push([anaEdit]).applied == [1])
        #expect(try bob.push([bobEdit]).applied == [1])
        let now = try ana.pull(since: 0).servers[0]
        #expect(now.port == 6432 && now.host == "db1.example.org")
        #expect(now.changedBy == team.editor2)
    }

    @Test func theSameFieldChangedTwiceIsAConflictForTheSecondAndNothingIsLost() throws {
        let (team, ana, bob, db1, base) = try twoEditorsAndOneServer()
        let anaEdit = TeamEdit(id: 1, uid: db1.uid, kind: .update, baseRevision: base.revision,
                               base: [.port: "5432"], mine: [.port: "6432"])
        let bobEdit = TeamEdit(id: 2, uid: db1.uid, kind: .update, baseRevision: base.revision,
                               base: [.port: "5432", .os: "linux"], mine: [.port: "7432", .os: "bsd"])
        #expect(try ana.push([anaEdit]).applied == [1])
        let outcome = try bob.push([bobEdit])
        #expect(outcome.applied.isEmpty)
        let conflict = try #require(outcome.conflicts[2]?.first)
        #expect(outcome.conflicts[2]?.count == 1)
        #expect(conflict.field == .port && conflict.base == "5432" && conflict.mine == "7432")
        #expect(conflict.theirs == "6432" && conflict.theirsBy == team.editor)
        // ana's port stays; bob's other field (os, unchanged by ana) went in.
        let now = try ana.pull(since: 0).servers[0]
        #expect(now.port == 6432 && now.os == "bsd")

        // The same edit pushed again (a sync killed before it noted the push) changes nothing more.
        let again = try bob.push([TeamEdit(id: 3, uid: db1.uid, kind: .update, baseRevision: base.revision,
                                           base: [.os: "linux"], mine: [.os: "bsd"])])
        #expect(again.applied == [3])
        #expect(try ana.pull(since: now.revision).servers.isEmpty)
    }

    @Test func pullsBringOnlyWhatChangedAndRemovalsAsTombstones() throws {
        let team = try TeamCluster.makeTeam()
        let editor = try team.open(team.editor)
        let servers = (1...5).map { TeamCluster.server("web\($0)") }
        #expect(try editor.push(servers.enumerated().map { TeamCluster.create($1, id: Int64($0 + 1)) }).applied.count
                == 5)
        let member = try team.open(team.member)
        let first = try member.pull(since: 0)
        #expect(Set(first.servers.map(\.name)) == Set(servers.map(\.name)))
        #expect(try member.pull(since: first.revision).servers.isEmpty)

        _ = try editor.push([TeamEdit(id: 9, uid: servers[1].uid, kind: .delete, baseRevision: first.revision,
                                      base: [:], mine: [:])])
        let next = try member.pull(since: first.revision)
        #expect(next.servers.map(\.name) == ["web2"])
        #expect(next.servers.first?.deleted == true)
        #expect(next.revision > first.revision)
        // A first pull of a team with a removed server leaves it out but reaches the same revision.
        let fresh = try team.open(team.member).pull(since: 0)
        #expect(fresh.servers.count == 4)
        #expect(fresh.revision == next.revision)
    }

    @Test func pinsAndPublishedChecks() throws {
        let team = try TeamCluster.makeTeam()
        let editor = try team.open(team.editor)
        let web1 = TeamCluster.server("web1")
        _ = try editor.push([TeamCluster.create(web1)])
        try editor.pin(TeamPin(host: "10.0.0.1", port: 22, keyType: "ssh-ed25519", key: "AAAAC3Nz",
                               fingerprint: "SHA256:abc"))
        let member = try team.open(team.member)
        let pins = try member.pull(since: 0).pins
        #expect(pins.count == 1)
        #expect(pins.first?.pinnedBy == team.editor && pins.first?.fingerprint == "SHA256:abc")

        let when = Date(timeIntervalSince1970: 1_800_000_000)
        try member.publish([TeamCheck(serverUid: web1.uid, member: team.member, status: "online", latencyMs: 3.5,
                                      checkedAt: when)])
        let published = try editor.pull(since: 0)
        // The same check again is not even tried: no revision is taken, no member woken.
        try member.listen()
        try member.publish([TeamCheck(serverUid: web1.uid, member: team.member, status: "online", latencyMs: 3.5,
                                      checkedAt: when)])
        #expect(try editor.pull(since: published.revision).checks.isEmpty)
        #expect(try member.waitForChange(timeout: 0.3) == false)
        let checks = published.checks
        #expect(checks == [TeamCheck(serverUid: web1.uid, member: team.member, status: "online", latencyMs: 3.5,
                                     checkedAt: when)])
        // Row-level security: a member cannot publish in another's name.
        let forged = #expect(throws: TeamError.self) {
            try member.connection.execute("""
                INSERT INTO essh.checks (server_uid, member, status, checked_at) VALUES ($1::uuid, $2, 'offline', now())
                """, [web1.uid, team.editor])
        }
        #expect(forged?.kind == .permission || forged?.message.contains("row-level security") == true)

        #expect(try editor.unpin(host: "10.0.0.1", port: 22) == 1)
        let after = try member.pull(since: 0).pins
        #expect(after.isEmpty)
    }

    @Test func aChangeIsAnnouncedToListeners() throws {
        let team = try TeamCluster.makeTeam()
        let member = try team.open(team.member)
        try member.listen()
        #expect(try member.waitForChange(timeout: 0.2) == false)
        let editor = try team.open(team.editor)
        _ = try editor.push([TeamCluster.create(TeamCluster.server("web1"))])
        let start = Date()
        #expect(try member.waitForChange(timeout: 5))
        #expect(Date().timeIntervalSince(start) < 5)

        // A wake descriptor ends the wait at once.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try member.waitForChange(timeout: 30, wake: ends[0]) == false)
    }

    @Test func theServerStoppedMidSessionIsAnOfflineMoment() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let own = try TeamCluster.makeTeam(on: cluster)
        let team = try own.open(own.editor)
        cluster.kill9()
        let lost = #expect(throws: TeamError.self) { try team.pull(since: 0) }
        #expect(lost?.isOffline == true)
        try cluster.restart()
        let again = try own.open(own.editor)
        #expect(try again.pull(since: 0).servers.isEmpty)
    }
}

/// TLS to the team database: verified against a pinned CA, and a name that does not match refused.
@Suite struct TeamTLSTests {
    @Test func verifiedTLSWorksAndANameMismatchIsRefused() throws {
        let cluster = try PostgresCluster.start(tls: true)
        defer { cluster.remove() }
        try cluster.createDatabase("essh")
        let ca = try #require(cluster.caFile)
        let good = cluster.url(user: "postgres", database: "essh", sslmode: "verify-full", sslrootcert: ca,
                               host: "localhost")
        let connection = try PGConnection.connect(url: good, password: Array(cluster.password.utf8))
        #expect(connection.usesTLS)

        let mismatch = cluster.url(user: "postgres", database: "essh", sslmode: "verify-full", sslrootcert: ca)
        let error = #expect(throws: TeamError.self) {
            try TeamDatabase.open(url: mismatch, password: Array(cluster.password.utf8))
        }
        #expect(error?.kind == .tls)
        #expect(error?.message.contains("does not match host name") == true)

        // verify-full without a CA file is checked against the system's store, where the throwaway CA is not.
        let system = cluster.url(user: "postgres", database: "essh", sslmode: "verify-full", host: "localhost")
        let untrusted = #expect(throws: TeamError.self) {
            try PGConnection.connect(url: system, password: Array(cluster.password.utf8))
        }
        #expect(untrusted?.kind == .tls)
        #expect(untrusted?.message.contains("certificate verify failed") == true)
    }
}
