import Foundation
import Inventory
import LocalProcess
import Testing
import TestSupport

/// The team's PostgreSQL for the `essh team …` tests: one throwaway cluster for the test process (tests that stop
/// the server make their own), and per test a fresh database made by `essh team init` as the superuser, with login
/// roles `<db>_ed`, `<db>_ed2` (editors) and `<db>_mem` (a member), each with a random password.
enum TeamFixture {
    struct SetupFailure: Error, CustomStringConvertible { let description: String }

    private static let started = Result { try PostgresCluster.start() }

    static func sharedCluster() throws -> PostgresCluster { try started.get() }

    typealias Team = PostgresTeam

    /// A database with eSSH's schema made by the real `essh team init` (unless `initialise` is false) and three
    /// login roles granted the editor and member groups.
    static func makeTeam(_ cluster: PostgresCluster? = nil, initialise: Bool = true) throws -> Team {
        try PostgresTeam.make(on: try cluster ?? sharedCluster(), prefix: "c", initialise: initialise)
    }

    /// One person: a HOME and a database of their own, their password in a 0600 file (`--password-file`), and with
    /// `pgpass` also in `$HOME/.pgpass` (named by PGPASSFILE too), so commands that reach the server on their own
    /// (`servers edit` pushing at once) find it.
    final class Home: @unchecked Sendable {
        let dir: TempDir
        let user: String
        let passwordFile: String
        var db: String { dir.file("essh.db") }

        init(cluster: PostgresCluster, user: String, password: String, pgpass: Bool = false) throws {
            dir = try TempDir()
            self.user = user
            mkdir(dir.file("run"), 0o700)
            passwordFile = dir.file("pg-password")
            try PostgresCluster.writePassFile([password], to: passwordFile)
            if pgpass {
                try PostgresCluster.writePassFile([PostgresCluster.passLine(host: cluster.host, port: cluster.port,
                                                                            user: user, password: password)],
                                                  to: dir.file(".pgpass"))
            }
        }

        convenience init(_ team: Team, _ user: String, pgpass: Bool = false) throws {
            try self.init(cluster: team.cluster, user: user, password: team.passwords[user] ?? "", pgpass: pgpass)
        }

        var environment: [String: String] {
            ["ESSH_DB": db, "HOME": dir.path, "XDG_DATA_HOME": dir.file("data"), "XDG_CONFIG_HOME": dir.file("config"),
             "XDG_RUNTIME_DIR": dir.file("run"), "PGPASSFILE": dir.file(".pgpass"), "LANG": "C.UTF-8"]
        }

        func essh(_ args: [String], timeout: TimeInterval = 120) throws -> RunResult {
            try Binary.runEssh(args, environment: environment, timeout: timeout)
        }

        /// `essh team sync` started in the background in a session of its own (output to /dev/null), for a test
        /// that kills it: its pid.
        func startSync() throws -> pid_t {
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            defer { close(null) }
            var environment = ProcessInfo.processInfo.environment
            for (key, value) in self.environment { environment[key] = value }
            return try ChildProcess.spawn(Binary.essh, ["team", "sync", "--password-file", passwordFile],
                                          environment: environment, stdin: null, stdout: null, stderr: null,
                                          closeOtherDescriptors: true, newSession: true)
        }

        /// `essh team SUBCOMMAND … --password-file FILE`.
        func team(_ args: [String], timeout: TimeInterval = 120) throws -> RunResult {
            try essh(["team"] + args + ["--password-file", passwordFile], timeout: timeout)
        }

        /// `essh team join URL` with the password file; expects success.
        func join(_ team: Team) throws {
            let r = try self.team(["join", team.url(user)])
            #expect(r.status == 0 && r.out.contains("Joined"), "join as \(user): \(r.out)\(r.err)")
        }

        func sync() throws -> RunResult { try team(["sync"]) }

        func servers() throws -> [[String: Any]] {
            let r = try essh(["servers", "list", "--json"])
            #expect(r.status == 0, "servers list: \(r.err)")
            let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
            return object?["servers"] as? [[String: Any]] ?? []
        }

        func server(_ name: String) throws -> [String: Any]? {
            try servers().first { $0["name"] as? String == name }
        }

        func status(offline: Bool = true) throws -> (RunResult, [String: Any]) {
            let r = offline ? try essh(["team", "status", "--offline", "--json"])
                : try team(["status", "--json", "--timeout", "3"])
            let object = (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any] ?? [:]
            return (r, object)
        }

        /// The team cache as Inventory's canonical snapshot (opened read-only in spirit: nothing is written).
        func snapshot() throws -> String { try Inventory(path: db).teamSnapshot() }

        /// Everything the database holds, every table and row (`sqlite3 .dump`, read-only). Not the file's bytes:
        /// every eSSH command that opens the database rewrites its header, whatever it changes.
        func digest() throws -> String {
            let r = try Binary.run("/usr/bin/sqlite3", ["-readonly", db, ".dump"])
            #expect(r.status == 0 && r.out.contains("CREATE TABLE"), "sqlite3: \(r.err)")
            return r.out
        }

        func cleanup() { dir.cleanup() }
    }

    /// Has a superuser insert `count` shared servers `srv1…srvN` in one statement (the trigger numbers them).
    static func bulkInsert(_ team: Team, count: Int) throws {
        try team.sql("""
            INSERT INTO essh.servers (uid, name, host, port, "user", jump, tags, os)
            SELECT gen_random_uuid(), 'srv' || i, '10.' || (i / 65536) || '.' || ((i / 256) % 256) || '.' || (i % 256),
                   22, 'admin', '', 'bulk', 'linux'
            FROM generate_series(1, \(count)) AS i;
            """)
    }
}

/// `essh team init|join|status|sync` and `servers … --team`, the real binary against a real PostgreSQL: roles,
/// the member refused, two editors' edits merged or shown as a conflict.
@Suite(.serialized) struct TeamCommandTests {
    typealias Home = TeamFixture.Home

    @Test func initJoinRolesAndAMemberIsRefused() throws {
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor), member = try Home(team, team.member)
        defer { editor.cleanup(); member.cleanup() }
        // init again: already there, nothing changed.
        let admin = try Home(team, team.cluster.superuser)
        defer { admin.cleanup() }
        let again = try admin.team(["init", team.url(team.cluster.superuser)])
        #expect(again.status == 0 && again.out.contains("already has eSSH's team schema"), "\(again.out)\(again.err)")

        let unlinked = try editor.essh(["servers", "add", "web0", "--host", "10.0.0.4", "--team"])
        #expect(unlinked.status == 2 && unlinked.err.contains("essh team join"), "\(unlinked.status) \(unlinked.err)")
        #expect(try editor.servers().isEmpty)
        try editor.join(team)
        var r = try editor.essh(["servers", "add", "web1", "--host", "10.0.0.5", "--user", "deploy", "--tag", "web",
                                 "--team"])
        #expect(r.status == 0 && r.out.contains("for the team"), "\(r.out)\(r.err)")
        // No pgpass: the add is queued until a sync with the password.
        #expect(r.out.contains("Queued for the team"), "\(r.out)")
        r = try editor.sync()
        #expect(r.status == 0 && r.out.contains("1 edit pushed"), "\(r.out)\(r.err)")

        try member.join(team)
        let (_, memberStatus) = try member.status(offline: false)
        #expect(memberStatus["role"] as? String == "member" && memberStatus["reachable"] as? Bool == true,
                "\(memberStatus)")
        #expect(memberStatus["member"] as? String == team.member && memberStatus["servers"] as? Int == 1)
        let (_, editorStatus) = try editor.status(offline: false)
        #expect(editorStatus["role"] as? String == "editor", "\(editorStatus)")
        let web = try #require(try member.server("web1"))
        #expect(web["host"] as? String == "10.0.0.5" && web["user"] as? String == "deploy")
        #expect(web["tags"] as? [String] == ["web"])
        let list = try member.essh(["servers", "list"])
        #expect(list.status == 0 && list.out.contains("web1") && list.out.contains("10.0.0.5"), "\(list.out)")

        let before = try member.digest()
        let edit = try member.essh(["servers", "edit", "web1", "--port", "2222"])
        #expect(edit.status == 2 && edit.err.contains("only the team's editors may"), "\(edit.status) \(edit.err)")
        let remove = try member.essh(["servers", "rm", "web1"])
        #expect(remove.status == 2 && remove.err.contains("only the team's editors may"), "\(remove.err)")
        #expect(try member.digest() == before, "the refused edits changed nothing")
        #expect(try member.server("web1")?["port"] as? Int == 22)
        let add = try member.essh(["servers", "add", "web2", "--host", "10.0.0.6", "--team"])
        #expect(add.status == 2 && add.err.contains("editors may"), "\(add.status) \(add.err)")
        #expect(try member.digest() == before)
        let resolve = try member.essh(["team", "conflicts", "resolve", "web1", "--mine"])
        #expect(resolve.status == 2 && resolve.err.contains("No conflict of web1"), "\(resolve.err)")
        // Joining the same team again is a sync.
        let rejoin = try member.team(["join", team.url(team.member)])
        #expect(rejoin.status == 0 && rejoin.out.contains("nothing new"), "\(rejoin.out)\(rejoin.err)")
        // Another team while linked: refused, nothing changed.
        let synced = try member.digest()
        let other = try member.team(["join", team.cluster.url(user: team.member, database: "postgres")])
        #expect(other.status == 2 && other.err.contains("already linked"), "\(other.status) \(other.err)")
        #expect(try member.digest() == synced)
        // A personal field of a shared server stays the member's to change.
        let note = try member.essh(["servers", "edit", "web1", "--note", "mine"])
        #expect(note.status == 0, "\(note.err)")

        // What the server itself refuses a member: pinning a key (essh asks the server), and a direct UPDATE.
        let key = member.dir.file("key.pub")
        try Data(try #require(try TestServers.require().otherHostKeyLine.data(using: .utf8))).write(
            to: URL(fileURLWithPath: key))
        let pin = try member.team(["pin", "web1", "--file", key])
        #expect(pin.status == 1 && pin.err.contains("refused the pin") && pin.err.contains("not an editor"),
                "\(pin.status) \(pin.err)")
        let direct = try team.cluster.runPsql(
            ["-h", team.cluster.host, "-p", String(team.cluster.port), "-U", team.member, "-d", team.database,
             "-c", "UPDATE essh.servers SET port = 2222"],
            environment: ["PGPASSFILE": team.cluster.passFile])
        #expect(direct.status != 0 && direct.err.contains("permission denied"), "\(direct.err)")
        #expect(try team.sql("SELECT port FROM essh.servers WHERE name = 'web1'") == "22")
    }

    /// The issue: "Shared servers appear in the servers list with a marker". A shared and a personal server with the
    /// same fields must be told apart in `servers list` and its JSON.
    @Test func sharedServersAreMarkedInTheList() throws {
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor)
        defer { editor.cleanup() }
        try editor.join(team)
        #expect(try editor.essh(["servers", "add", "aaa1", "--host", "10.0.0.5", "--team"]).status == 0)
        #expect(try editor.sync().status == 0)
        #expect(try editor.essh(["servers", "add", "aaa2", "--host", "10.0.0.5"]).status == 0)
        let list = try editor.essh(["servers", "list"])
        let rows = list.out.split(separator: "\n").map(String.init)
        let shared = try #require(rows.first { $0.hasPrefix("aaa1") })
        let own = try #require(rows.first { $0.hasPrefix("aaa2") })
        let servers = try editor.servers()
        let sharedJSON = try #require(servers.first { $0["name"] as? String == "aaa1" })
        let ownJSON = try #require(servers.first { $0["name"] as? String == "aaa2" })
        #expect(shared.replacingOccurrences(of: "aaa1", with: "aaa2") != own, "table rows: \(shared) | \(own)")
        #expect(rows.first?.contains("TEAM") == true && shared.contains("shared"), "\(list.out)")
        #expect(sharedJSON["shared"] as? Bool == true && (sharedJSON["team_revision"] as? Int ?? 0) > 0,
                "\(sharedJSON)")
        #expect(ownJSON["shared"] as? Bool == false && ownJSON["team_revision"] is NSNull, "\(ownJSON)")
    }

    @Test func twoEditorsDifferentFieldsBothKeptSameFieldAConflictNothingLost() throws {
        let team = try TeamFixture.makeTeam()
        let ana = try Home(team, team.editor), ben = try Home(team, team.editor2), eve = try Home(team, team.member)
        defer { ana.cleanup(); ben.cleanup(); eve.cleanup() }
        try ana.join(team)
        #expect(try ana.essh(["servers", "add", "web1", "--host", "10.0.0.5", "--team"]).status == 0)
        #expect(try ana.sync().status == 0)
        try ben.join(team)
        try eve.join(team)

        // Different fields, each edited offline (queued), then synced.
        var r = try ana.essh(["servers", "edit", "web1", "--port", "2222"])
        #expect(r.status == 0 && r.out.contains("Queued"), "\(r.out)\(r.err)")
        r = try ben.essh(["servers", "edit", "web1", "--user", "deploy"])
        #expect(r.status == 0 && r.out.contains("Queued"), "\(r.out)\(r.err)")
        #expect(try ana.essh(["team", "status", "--offline"]).out.contains("queued edits: 1"))
        r = try ana.sync()
        #expect(r.status == 0, "\(r.out)\(r.err)")
        r = try ben.sync()
        #expect(r.status == 0 && !r.out.contains("conflict"), "\(r.out)\(r.err)")
        #expect(try team.sql("SELECT port, \"user\" FROM essh.servers WHERE name = 'web1'") == "2222|deploy")
        #expect(try eve.sync().status == 0 && ana.sync().status == 0)
        for home in [ana, ben, eve] {
            let web = try #require(try home.server("web1"))
            #expect(web["port"] as? Int == 2222 && web["user"] as? String == "deploy", "\(home.user): \(web)")
        }

        // The same field: the second is told, nothing is overwritten.
        #expect(try ana.essh(["servers", "edit", "web1", "--host", "10.0.0.7"]).status == 0)
        #expect(try ben.essh(["servers", "edit", "web1", "--host", "10.0.0.8"]).status == 0)
        #expect(try ana.sync().status == 0)
        r = try ben.sync()
        #expect(r.status == 1 && r.out.contains("conflict"), "\(r.status) \(r.out)\(r.err)")
        #expect(try team.sql("SELECT host FROM essh.servers WHERE name = 'web1'") == "10.0.0.7")
        let listing = try ben.essh(["team", "conflicts", "--json"])
        #expect(listing.status == 0, "\(listing.err)")
        let object = try JSONSerialization.jsonObject(with: listing.stdout) as? [String: Any]
        let conflicts = object?["conflicts"] as? [[String: Any]] ?? []
        #expect(conflicts.count == 1, "\(listing.out)")
        let conflict = try #require(conflicts.first)
        #expect(conflict["name"] as? String == "web1" && conflict["field"] as? String == "host")
        #expect(conflict["base"] as? String == "10.0.0.5" && conflict["mine"] as? String == "10.0.0.8"
                && conflict["theirs"] as? String == "10.0.0.7" && conflict["theirsBy"] as? String == team.editor,
                "\(conflict)")
        let table = try ben.essh(["team", "conflicts"])
        #expect(table.out.contains("10.0.0.5") && table.out.contains("10.0.0.8") && table.out.contains("10.0.0.7"))
        #expect(try ben.essh(["team", "status", "--offline", "--json"]).out.contains("\"conflicts\" : 1"))

        r = try ben.essh(["team", "conflicts", "resolve", "web1", "--mine"])
        #expect(r.status == 0 && r.out.contains("Kept your value"), "\(r.out)\(r.err)")
        r = try ben.sync()
        #expect(r.status == 0 && r.out.contains("1 edit pushed"), "\(r.out)\(r.err)")
        #expect(try team.sql("SELECT host, port, \"user\" FROM essh.servers WHERE name = 'web1'")
                == "10.0.0.8|2222|deploy")
        #expect(try ana.sync().status == 0 && eve.sync().status == 0)
        // Once more in JSON, through `team push`: the conflict fails the command there too; --theirs keeps the team's.
        #expect(try ana.essh(["servers", "edit", "web1", "--os", "bsd"]).status == 0)
        #expect(try ben.essh(["servers", "edit", "web1", "--os", "macos"]).status == 0)
        #expect(try ana.sync().status == 0)
        r = try ben.team(["push", "--json"])
        #expect(r.status == 1, "\(r.status) \(r.out)\(r.err)")
        let pushed = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let reported = pushed?["conflicts"] as? [[String: Any]] ?? []
        #expect(reported.count == 1 && reported.first?["mine"] as? String == "macos"
                && reported.first?["theirs"] as? String == "bsd", "\(r.out)")
        r = try ben.team(["sync", "--json"])
        #expect(r.status == 0, "the conflict was reported once: \(r.out)\(r.err)")
        r = try ben.essh(["team", "conflicts", "resolve", "web1", "--theirs", "--field", "os"])
        #expect(r.status == 0 && r.out.contains("Kept the team's value"), "\(r.out)\(r.err)")
        #expect(try ben.server("web1")?["os"] as? String == "bsd")
        #expect(try ben.sync().status == 0 && eve.sync().status == 0)
        #expect(try team.sql("SELECT os FROM essh.servers WHERE name = 'web1'") == "bsd")
        let snapshots = try Set([ana, ben, eve].map { try $0.snapshot() })
        #expect(snapshots.count == 1, "every cache holds the same team")
        #expect(try ben.essh(["team", "conflicts", "--json"]).out.contains("\"conflicts\" : [\n\n  ]")
                || ben.essh(["team", "conflicts"]).out.contains("No conflicts."))
    }

    @Test func leaveDropsOrKeepsTheTeamsServers() throws {
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor), member = try Home(team, team.member)
        defer { editor.cleanup(); member.cleanup() }
        try editor.join(team)
        #expect(try editor.essh(["servers", "add", "web1", "--host", "10.0.0.5", "--team"]).status == 0)
        #expect(try editor.sync().status == 0)
        #expect(try member.essh(["servers", "add", "mine", "--host", "192.0.2.1"]).status == 0)
        try member.join(team)
        var r = try member.essh(["team", "leave"])
        #expect(r.status == 0 && r.out.contains("1 shared server removed from your list"), "\(r.out)\(r.err)")
        #expect(try member.servers().compactMap { $0["name"] as? String } == ["mine"])
        #expect(try member.essh(["team", "status", "--offline"]).status == 2)
        try member.join(team)
        r = try member.essh(["team", "leave", "--keep"])
        #expect(r.status == 0 && r.out.contains("1 server is now your own"), "\(r.out)\(r.err)")
        // Now the member's own: editable, nothing queued for anyone.
        r = try member.essh(["servers", "edit", "web1", "--port", "2222"])
        #expect(r.status == 0 && !r.out.contains("Queued"), "\(r.out)\(r.err)")
        #expect(try team.sql("SELECT port FROM essh.servers WHERE name = 'web1'") == "22")
        // An editor leaving with an edit never pushed is told it is dropped.
        #expect(try editor.essh(["servers", "edit", "web1", "--port", "2200"]).status == 0)
        r = try editor.essh(["team", "leave"])
        #expect(r.status == 0 && r.err.contains("1 queued edit(s) were never pushed"), "\(r.out)\(r.err)")
        #expect(try editor.servers().isEmpty)
        #expect(try team.sql("SELECT port FROM essh.servers WHERE name = 'web1'") == "22")
    }

    /// `--json` everywhere: the commands that change only the local link say what they did as JSON too.
    @Test func publishAndLeaveSpeakJSON() throws {
        let team = try TeamFixture.makeTeam()
        let member = try Home(team, team.member)
        defer { member.cleanup() }
        try member.join(team)
        var r = try member.essh(["team", "publish", "on", "--json"])
        var object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(r.status == 0 && object?["publishChecks"] as? Bool == true, "\(r.out)\(r.err)")
        #expect(try member.status().1["publishChecks"] as? Bool == true)
        r = try member.essh(["team", "leave", "--keep", "--json"])
        object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(r.status == 0 && object?["kept"] as? Bool == true && object?["servers"] as? Int == 0, "\(r.out)")
        #expect(object?["url"] as? String == team.url(team.member))
    }

    /// Bad input: a clear message, a non-zero exit, the local database byte for byte as it was.
    @Test func badInputIsRefusedClearlyAndTheInventoryUntouched() throws {
        let team = try TeamFixture.makeTeam()
        let cluster = team.cluster
        let editor = try Home(team, team.editor), newcomer = try Home(team, team.member)
        defer { editor.cleanup(); newcomer.cleanup() }
        try editor.join(team)
        #expect(try editor.essh(["servers", "add", "web1", "--host", "10.0.0.5", "--team"]).status == 0)
        #expect(try editor.sync().status == 0)
        #expect(try newcomer.essh(["servers", "add", "mine", "--host", "192.0.2.1"]).status == 0)

        let bare = "c" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try cluster.createDatabase(bare)
        let wrong = newcomer.dir.file("wrong-password")
        try PostgresCluster.writePassFile(["not the password"], to: wrong)
        let tls = try PostgresCluster.start(tls: true)
        defer { tls.remove() }
        let tlsPassword = newcomer.dir.file("tls-password")
        try PostgresCluster.writePassFile([tls.password], to: tlsPassword)
        let tlsURL = tls.url(user: tls.superuser, database: "postgres", sslmode: "verify-full",
                             sslrootcert: tls.caFile, host: "127.0.0.1")

        struct Case { var args: [String]; var status: Int32; var words: [String]; var hidden: String? = nil }
        let cases = [
            Case(args: ["join", "postgres://%zz@127.0.0.1/db", "--password-file", newcomer.passwordFile],
                 status: 2, words: ["cannot be read", "postgres://USER@HOST"]),
            Case(args: ["join", "not a url at all", "--password-file", newcomer.passwordFile],
                 status: 2, words: ["cannot be read"]),
            Case(args: ["join", "postgres://\(team.member):hunter2secret@127.0.0.1:\(cluster.port)/\(team.database)"],
                 status: 2, words: ["holds a password"], hidden: "hunter2secret"),
            Case(args: ["join", team.url(team.member), "--password-file", wrong],
                 status: 255, words: ["password"], hidden: "not the password"),
            Case(args: ["join", tlsURL, "--password-file", tlsPassword], status: 255, words: ["certificate"]),
            Case(args: ["join", cluster.url(user: cluster.superuser, database: bare), "--password-file",
                        newcomer.dir.file("super")],
                 status: 2, words: ["schema", "essh team init"]),
        ]
        try PostgresCluster.writePassFile([cluster.password], to: newcomer.dir.file("super"))
        let listing = try newcomer.essh(["servers", "list", "--json"]).out
        let before = try newcomer.digest()
        for c in cases {
            let r = try newcomer.essh(["team"] + c.args)
            #expect(r.status == c.status, "\(c.args): \(r.status) \(r.err)")
            for word in c.words { #expect(r.err.contains(word), "\(c.args): \(r.err)") }
            if let hidden = c.hidden { #expect(!r.err.contains(hidden) && !r.out.contains(hidden), "\(r.err)") }
            #expect(try newcomer.digest() == before, "\(c.args) changed the database")
        }
        #expect(try newcomer.essh(["servers", "list", "--json"]).out == listing)
        let notLinked = try newcomer.essh(["team", "status", "--offline"])
        #expect(notLinked.status == 2 && notLinked.err.contains("not linked"), "\(notLinked.err)")

        // A schema newer than this eSSH: neither a join nor a linked member's sync touches anything.
        try team.sql("UPDATE essh.meta SET value = '99' WHERE key = 'schema_version';")
        var r = try newcomer.team(["join", team.url(team.member)])
        #expect(r.status == 2 && r.err.contains("version 99") && r.err.contains("Update eSSH"), "\(r.status) \(r.err)")
        #expect(try newcomer.digest() == before)
        let superPassword = newcomer.dir.file("super")
        r = try newcomer.essh(["team", "init", cluster.url(user: cluster.superuser, database: team.database),
                               "--password-file", superPassword])
        #expect(r.status == 2 && r.err.contains("Update eSSH"), "init over a newer schema: \(r.status) \(r.err)")
        #expect(try team.sql("SELECT value FROM essh.meta WHERE key = 'schema_version'") == "99")
        // init by a role that may not create the schema: told, nothing made.
        let fresh = "c" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try cluster.createDatabase(fresh)
        try cluster.psql("REVOKE CREATE ON DATABASE \"\(fresh)\" FROM PUBLIC;")
        r = try newcomer.team(["init", cluster.url(user: team.member, database: fresh)])
        #expect(r.status != 0 && r.err.contains("permission"), "init as a member: \(r.status) \(r.err)")
        #expect(try cluster.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'essh'", database: fresh) == "0")
        #expect(try newcomer.digest() == before)
        _ = try editor.essh(["servers", "list"])
        let editorBefore = try editor.digest()
        r = try editor.sync()
        #expect(r.status == 2 && r.err.contains("Update eSSH"), "\(r.status) \(r.err)")
        #expect(try editor.digest() == editorBefore)
    }
}
