import Foundation
import Synchronization
import Testing
import TestSupport

/// TestSupport's `PostgresCluster` against Debian's real PostgreSQL (installed by `make test`): what the team tests
/// (issue 18) rely on. Not in FAST_TESTS: each test starts a server. Serialized: the machine has two cores.
@Suite(.serialized) struct PostgresClusterTests {
    @Test func rolesLogInOverTCPWithTheirPasswordOnly() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let password = "pa:ss'wo\\rd ✓"
        try cluster.createRole("alice", password: password)
        try cluster.createDatabase("team", owner: "alice")
        try cluster.psql("CREATE TABLE kept (n int); INSERT INTO kept VALUES (7); GRANT SELECT ON kept TO alice;",
                         database: "team")

        // The data directory belongs to postgres and is private; the pgpass file is the caller's, 0600.
        var data = stat()
        #expect(stat(cluster.dataDirectory, &data) == 0 && data.st_mode & 0o777 == 0o700)
        #expect(getpwuid(data.st_uid).map { String(cString: $0.pointee.pw_name) } == "postgres")
        var pass = stat()
        #expect(stat(cluster.passFile, &pass) == 0 && pass.st_mode & 0o777 == 0o600 && pass.st_uid == geteuid())

        let url = cluster.url(user: "alice", database: "team")
        #expect(url == "postgres://alice@127.0.0.1:\(cluster.port)/team")
        let query = ["-d", url, "-A", "-t", "-c", "SELECT current_user || ' ' || current_database() || ' ' || "
            + "(SELECT n FROM kept) || ' ' || (SELECT count(*) FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl)"]
        let good = try cluster.runPsql(query, environment: ["PGPASSFILE": cluster.passFile])
        #expect(good.status == 0, "\(good.err)")
        #expect(good.out == "alice team 7 0\n")
        #expect(cluster.log.contains("connection authenticated: identity=\"alice\" method=scram-sha-256"))

        // The superuser over TCP with the cluster's password.
        let superuser = try cluster.runPsql(["-d", cluster.url(user: "postgres", database: "postgres"), "-Atc",
                                             "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"],
                                            environment: ["PGPASSFILE": cluster.passFile])
        #expect(superuser.status == 0 && superuser.out == "t\n", "\(superuser.err)")

        let directory = try TempDir()
        defer { directory.cleanup() }
        let wrong = directory.file("pgpass")
        try PostgresCluster.writePassFile(
            [PostgresCluster.passLine(host: "127.0.0.1", port: cluster.port, user: "alice", password: password + "x")],
            to: wrong)
        let refused = try cluster.runPsql(query, environment: ["PGPASSFILE": wrong])
        #expect(refused.status != 0)
        #expect(refused.err.contains("password authentication failed for user \"alice\""), "\(refused.err)")
        let none = try cluster.runPsql(query, environment: ["PGPASSFILE": directory.file("absent")])
        #expect(none.status != 0)
        #expect(none.err.contains("no password supplied"), "\(none.err)")
    }

    @Test func stopAndRestartKeepTheDataAndThePort() throws {
        let began = Date()
        let cluster = try PostgresCluster.start()
        let started = Date().timeIntervalSince(began)
        defer { cluster.remove() }
        try cluster.psql("CREATE TABLE kept (n int); INSERT INTO kept VALUES (41), (1);")
        let port = cluster.port
        let stopping = Date()
        cluster.stop()
        let stopped = Date().timeIntervalSince(stopping)
        #expect(!cluster.isRunning)
        #expect(throws: PostgresCluster.Failure.self) { try cluster.psql("SELECT 1") }
        // More input than a pipe holds, to a psql that cannot connect and never reads it: an error, not SIGPIPE.
        #expect(throws: PostgresCluster.Failure.self) {
            try cluster.psql(String(repeating: "SELECT 1;\n", count: 100_000))
        }
        let restarting = Date()
        try cluster.restart()
        let restarted = Date().timeIntervalSince(restarting)
        #expect(cluster.port == port)
        #expect(try cluster.psql("SELECT sum(n) FROM kept") == "42")
        let tcp = try cluster.runPsql(["-d", cluster.url(user: "postgres", database: "postgres"), "-Atc", "SELECT 1"],
                                      environment: ["PGPASSFILE": cluster.passFile])
        #expect(tcp.status == 0 && tcp.out == "1\n", "\(tcp.err)")
        print(String(format: "PostgresCluster: start (initdb + postgres) %.2f s, stop %.3f s, restart %.2f s",
                     started, stopped, restarted))
        // Generous bounds: a hang, not a slow machine, should fail here.
        #expect(started < 30 && stopped < 10 && restarted < 30)
    }

    @Test func kill9BreaksSessionsAndRestartRecovers() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        try cluster.psql("CREATE TABLE kept (n int); INSERT INTO kept VALUES (5);")
        let pid = try #require(cluster.postmasterPID)
        let url = cluster.url(user: "postgres", database: "postgres")
        let passFile = cluster.passFile
        // The session's psql blocks for its whole life: on a thread of its own, not the concurrency pool (two
        // threads on this machine, which other suites' blocking calls can hold so that it never started: seen in a
        // clone's make test under load, the session never reached its query).
        let session = Mutex<(result: Result<RunResult, any Error>, took: Double)?>(nil)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let began = Date()
            let result = Result { try cluster.runPsql(["-d", url, "-Atc", "SELECT pg_sleep(60)"],
                                                      environment: ["PGPASSFILE": passFile], timeout: 90) }
            session.withLock { $0 = (result, Date().timeIntervalSince(began)) }
            ended.signal()
        }
        // Wait until the session is in its query.
        var waiting = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            waiting = try cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
            if waiting == "1" { break }
            usleep(10_000)
        }
        #expect(waiting == "1")

        cluster.kill9()
        #expect(!cluster.isRunning)
        #expect(!PostgresCluster.isAlive(pid))
        #expect(ended.wait(timeout: .now() + 90) == .success, "the session's psql did not end")
        let (outcome, took) = try #require(session.withLock { $0 })
        let broken = try outcome.get()
        #expect(broken.status != 0)
        #expect(took < 30, "the session outlived the server")
        #expect(broken.err.contains("server closed the connection unexpectedly")
            || broken.err.contains("terminating connection"), "\(broken.err)")
        let refused = try cluster.runPsql(["-d", url, "-Atc", "SELECT 1"], environment: ["PGPASSFILE": passFile])
        #expect(refused.status != 0 && refused.err.contains("Connection refused"), "\(refused.err)")

        try cluster.restart()
        #expect(try cluster.psql("SELECT n FROM kept") == "5")
        #expect(cluster.log.contains("database system was interrupted"))
        let back = try cluster.runPsql(["-d", url, "-Atc", "SELECT 1"], environment: ["PGPASSFILE": passFile])
        #expect(back.status == 0, "\(back.err)")
    }

    @Test func tlsVerifyFullAcceptsLocalhostAndRefusesTheAddress() throws {
        let cluster = try PostgresCluster.start(tls: true)
        defer { cluster.remove() }
        let ca = try #require(cluster.caFile)
        let environment = ["PGPASSFILE": cluster.passFile]
        let sql = ["-Atc", "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"]
        let conninfo = "port=\(cluster.port) user=postgres dbname=postgres sslmode=verify-full sslrootcert=\(ca)"

        let pinned = try cluster.runPsql(["-d", "host=localhost " + conninfo] + sql, environment: environment)
        #expect(pinned.status == 0, "\(pinned.err)")
        #expect(pinned.out == "t\n")

        let mismatch = try cluster.runPsql(["-d", "host=127.0.0.1 " + conninfo] + sql, environment: environment)
        #expect(mismatch.status != 0)
        // libpq counts the CN and the subjectAltName: `for "localhost" (and 1 other name) does not match`.
        #expect(mismatch.err.contains("server certificate for \"localhost\"")
            && mismatch.err.contains("does not match host name \"127.0.0.1\""), "\(mismatch.err)")

        // The URL form says the same, and the server's certificate is not signed by the system's CAs.
        let url = cluster.url(user: "postgres", database: "postgres", sslmode: "verify-full", sslrootcert: ca,
                              host: "localhost")
        let viaURL = try cluster.runPsql(["-d", url] + sql, environment: environment)
        #expect(viaURL.status == 0 && viaURL.out == "t\n", "\(url): \(viaURL.err)")
        let systemCAs = try cluster.runPsql(
            ["-d", "host=localhost port=\(cluster.port) user=postgres dbname=postgres sslmode=verify-full "
                + "sslrootcert=/etc/ssl/certs/ca-certificates.crt"] + sql, environment: environment)
        #expect(systemCAs.status != 0 && systemCAs.err.contains("certificate verify failed"), "\(systemCAs.err)")
    }

    @Test func aClusterWithoutTLSRefusesSSLModeRequire() throws {
        let cluster = try PostgresCluster.start(authMethod: .trust)
        defer { cluster.remove() }
        #expect(cluster.caFile == nil)
        let required = try cluster.runPsql(["-d", cluster.url(user: "postgres", database: "postgres",
                                                              sslmode: "require"), "-Atc", "SELECT 1"])
        #expect(required.status != 0 && required.err.contains("server does not support SSL"), "\(required.err)")
        // trust: no password needed over TCP (no PGPASSFILE given).
        let trusted = try cluster.runPsql(["-d", cluster.url(user: "postgres", database: "postgres"), "-Atc",
                                           "SELECT 1"], environment: ["PGPASSFILE": "/nonexistent"])
        #expect(trusted.status == 0 && trusted.out == "1\n", "\(trusted.err)")
    }

    @Test func startingWithoutPostgreSQLSaysSoAtOnce() throws {
        let empty = try TempDir()
        defer { empty.cleanup() }
        let began = Date()
        do {
            _ = try PostgresCluster.start(installations: empty.path)
            Issue.record("started without PostgreSQL")
        } catch let failure as PostgresCluster.Failure {
            #expect(failure.description.hasPrefix(
                "PostgreSQL is not installed (no \(empty.path)/<version>/bin/postgres)"))
            #expect(failure.description.contains("make test"))
            #expect(failure.description.split(separator: "\n").count == 1)
        }
        #expect(Date().timeIntervalSince(began) < 2)
    }

    /// A test process that ends without stopping its cluster (killed, crashed) leaves the postmaster running; the
    /// harness's `stop` for that STATE ends it and removes its folder.
    @Test func harnessStopEndsTheClustersAnEndedTestLeft() throws {
        try Self.childStartsACluster { _exit(0) }  // no atexit handlers: as if killed
        let directory = try TempDir()
        defer { directory.cleanup() }
        let state = directory.file("state with spaces")
        let (dataDirectory, pid) = try Self.clusterOfAChild(test: "harnessStopEndsTheClustersAnEndedTestLeft",
                                                            state: state, report: directory.file("report"))
        defer {  // when the harness failed: nothing left behind all the same
            if PostgresCluster.isAlive(pid) { kill(pid, SIGKILL) }
            let folder = URL(fileURLWithPath: dataDirectory).deletingLastPathComponent().path
            try? FileManager.default.removeItem(atPath: folder)
        }
        #expect(PostgresCluster.isAlive(pid), "the child's cluster should outlive it")
        let before = try Spawn.run("/usr/bin/pgrep", ["-f", "--", "-D \(dataDirectory)"])
        #expect(before.out.split(separator: "\n").map(String.init) == [String(pid)])
        let backends = try Spawn.run("/usr/bin/pgrep", ["-P", String(pid)]).out.split(separator: "\n")
            .compactMap { pid_t($0) }
        #expect(!backends.isEmpty)

        let stop = try Spawn.run(RepoPaths.root + "/Tests/Harness/test-servers.sh", ["stop"],
                                 environment: ["ESSH_TEST_STATE": state], timeout: 60)
        #expect(stop.status == 0, "\(stop.err)")
        #expect(stop.out.isEmpty && stop.err.isEmpty, "stop should be quiet: \(stop.out)\(stop.err)")
        let after = try Spawn.run("/usr/bin/pgrep", ["-f", "--", "-D \(dataDirectory)"])
        #expect(after.status == 1 && after.out.isEmpty, "still running: \(after.out)")
        #expect(!PostgresCluster.isAlive(pid))
        #expect(backends.allSatisfy { !PostgresCluster.isAlive($0) })
        #expect(!FileManager.default.fileExists(atPath: dataDirectory))
    }

    /// A test process that exits normally with a cluster it never removed (kept in a global, so no deinit) stops
    /// it and deletes its folder on the way out, without the harness.
    @Test func aTestProcessThatExitsStopsTheClustersItKept() throws {
        try Self.childStartsACluster { exit(0) }
        let directory = try TempDir()
        defer { directory.cleanup() }
        let (dataDirectory, pid) = try Self.clusterOfAChild(test: "aTestProcessThatExitsStopsTheClustersItKept",
                                                            state: directory.file("state"),
                                                            report: directory.file("report"))
        defer {  // what a failure left, and the STATE's (empty) clusters folder
            if PostgresCluster.isAlive(pid) { kill(pid, SIGKILL) }
            _ = try? Spawn.run(RepoPaths.root + "/Tests/Harness/test-servers.sh", ["stop"],
                               environment: ["ESSH_TEST_STATE": directory.file("state")], timeout: 60)
        }
        #expect(!PostgresCluster.isAlive(pid))
        let after = try Spawn.run("/usr/bin/pgrep", ["-f", "--", "-D \(dataDirectory)"])
        #expect(after.status == 1 && after.out.isEmpty, "still running: \(after.out)")
        #expect(!FileManager.default.fileExists(atPath: dataDirectory))
    }

    /// Kept by the child of `aTestProcessThatExitsStopsTheClustersItKept`, never released.
    nonisolated(unsafe) static var kept: PostgresCluster?

    /// In the child (ESSH_PG_CHILD_REPORT set): starts a cluster, keeps it, writes its data directory and
    /// postmaster's pid to the report file and ends the process with `end`. In the test itself: nothing.
    static func childStartsACluster(end: () -> Never) throws {
        guard let report = ProcessInfo.processInfo.environment["ESSH_PG_CHILD_REPORT"] else { return }
        let cluster = try PostgresCluster.start()
        kept = cluster
        try "\(cluster.dataDirectory)\n\(cluster.postmasterPID ?? 0)\n"
            .write(toFile: report, atomically: true, encoding: .utf8)
        end()
    }

    /// Runs this test binary again for `test` alone, as a child with ESSH_TEST_STATE `state`, and returns the data
    /// directory and postmaster pid of the cluster it started, once it has ended.
    static func clusterOfAChild(test: String, state: String, report: String) throws
        -> (dataDirectory: String, pid: pid_t)
    {
        let child = try Spawn.run(CommandLine.arguments[0], selfArguments(test: test),
                                  environment: ["ESSH_TEST_STATE": state, "ESSH_PG_CHILD_REPORT": report],
                                  timeout: 180)
        let lines = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: "\n")
        try #require(child.status == 0 && lines.count == 2, "child: \(child.status) \(child.out) \(child.err)")
        return (String(lines[0]), try #require(pid_t(lines[1])))
    }

    /// The arguments that make this test binary run one test of this suite (swift-testing's entry point).
    static func selfArguments(test: String) -> [String] {
        ["--testing-library", "swift-testing", "--filter", "PostgresHarnessTests.PostgresClusterTests/\(test)"]
    }
}
