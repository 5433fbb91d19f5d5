import Foundation
import LocalProcess

/// A throwaway PostgreSQL server for one test, like the harness's sshd: Debian's `postgresql` (installed by
/// `make test`), a fresh cluster made by initdb, a free port on 127.0.0.1, a Unix socket folder of its own, fsync off.
///
/// PostgreSQL refuses to run as root and the tests run as root, so initdb and the postmaster run as the `postgres`
/// system user (setpriv). The postmaster is our own child (`postgres -D`, no pg_ctl), so `stop()` and `kill9()`
/// act on it directly. The cluster lives in `/run/essh-test/<STATE hash>-pg/<random>` (root-owned, 0755 up to it):
/// the postgres user could not reach a folder under a 0700 checkout parent (/root), and
/// `Tests/Harness/test-servers.sh stop` finds there, and stops and removes, every cluster a test of this STATE left
/// behind (a crashed or killed test process). `remove()`, `deinit` and the process's exit stop it and delete it.
///
/// The superuser `postgres` may log in over the socket without a password (`psql(_:)`) and over TCP with
/// `password` (scram-sha-256 unless `authMethod` says otherwise). `passFile` is a 0600 pgpass file with its line and
/// those of the roles `createRole` made, for `PGPASSFILE`; no password is ever put in an argument or variable.
public final class PostgresCluster: @unchecked Sendable {
    /// How a TCP client proves who it is (pg_hba.conf's method for `host` lines); the socket is always `trust`.
    public enum AuthMethod: String, Sendable {
        case scramSHA256 = "scram-sha-256"
        case trust
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// 127.0.0.1: the only address the server listens on.
    public let host = "127.0.0.1"
    /// The TCP port (kept by `restart()`).
    public let port: Int
    /// The superuser's name and its password (random, 32 hex digits).
    public let superuser = "postgres"
    public let password: String
    /// The cluster's folder (root-owned, 0755): `data`, `socket`, `postgres.log`, `pgpass`, `ca.crt`.
    public let directory: String
    /// The data directory (owned by postgres, 0700).
    public let dataDirectory: String
    /// The folder of the Unix socket (`psql -h socketDirectory -p port`).
    public let socketDirectory: String
    /// The server's log (its stderr): connections, authentication failures, TLS errors.
    public let logPath: String
    /// A pgpass file (0600) for `PGPASSFILE`: the superuser and every role `createRole` gave a password, for
    /// `127.0.0.1` and `localhost` on `port`.
    public let passFile: String
    /// With `tls`: the certificate of the throwaway CA that signed the server's (for `sslrootcert`). The server's
    /// certificate names `localhost` only (CN and subjectAltName DNS:localhost), so `verify-full` to 127.0.0.1
    /// fails with a name mismatch.
    public let caFile: String?
    /// The PostgreSQL major version in use (`15`) and its programs' folder (`/usr/lib/postgresql/15/bin`).
    public let version: String
    public let binDirectory: String

    private let owner: (uid: uid_t, gid: gid_t)
    private let lock = NSLock()
    private var pid: pid_t?
    private var removed = false

    /// Makes and starts a cluster, waiting until it accepts connections. `installations` is where Debian puts
    /// PostgreSQL's versions (a test points it at an empty folder). `state` is the harness STATE the cluster
    /// belongs to (`$ESSH_TEST_STATE`, else `<repo>/.test-servers`). Throws one sentence saying what is missing
    /// (PostgreSQL, root, the postgres user, openssl) or why the server did not start, with its log's last lines.
    public static func start(tls: Bool = false, authMethod: AuthMethod = .scramSHA256,
                             installations: String = "/usr/lib/postgresql", state: String? = nil) throws
        -> PostgresCluster
    {
        let (version, bin) = try installation(in: installations)
        guard geteuid() == 0 else {
            throw Failure(description: "PostgresCluster needs root (it runs PostgreSQL as the postgres user); "
                + "run the tests as root, as `make test` does.")
        }
        guard let entry = getpwnam("postgres") else {
            throw Failure(description: "There is no postgres system user; reinstall Debian's postgresql package.")
        }
        let owner = (uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        if tls && !FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") {
            throw Failure(description: "openssl is not installed (needed for the TLS cluster's certificates): run "
                + "`make test`, which installs it.")
        }
        let base = try clustersFolder(state: state)
        let directory = base + "/" + randomHex(bytes: 6)
        try makeFolder(directory, mode: 0o755)
        do {
            return try PostgresCluster(directory: directory, version: version, bin: bin, owner: owner, tls: tls,
                                       authMethod: authMethod)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private init(directory: String, version: String, bin: String, owner: (uid: uid_t, gid: gid_t), tls: Bool,
                 authMethod: AuthMethod) throws
    {
        let data = directory + "/data", socket = directory + "/socket", log = directory + "/postgres.log"
        let password = Self.randomHex(bytes: 16)
        for folder in [data, socket] {
            try Self.makeFolder(folder, mode: 0o700)
            guard chown(folder, owner.uid, owner.gid) == 0 else {
                throw Failure(description: "Could not give \(folder) to the postgres user: \(Self.systemError())")
            }
        }
        // The password reaches initdb on its standard input (--pwprompt reads it there without a terminal).
        let initdb = try Self.run(
            "/usr/bin/setpriv",
            Self.asPostgres(owner) + [bin + "/initdb", "-D", data, "-U", "postgres", "--pwprompt",
                                      "-A", authMethod.rawValue, "--auth-local=trust", "--no-sync",
                                      "--no-instructions", "-E", "UTF8", "--locale=C.UTF-8"],
            input: password + "\n" + password + "\n", timeout: 120)
        guard initdb.status == 0 else {
            throw Failure(description: "initdb failed (\(initdb.status)): \(Self.lastLines(initdb.err + initdb.out))")
        }
        // fsync off: a killed server's writes are still in the kernel's cache, only a machine crash loses them.
        // synchronous_commit stays on: off, kill9() would lose the last commits, and a test of a server dying
        // mid-session would see committed rows vanish.
        var settings = [
            "listen_addresses = '127.0.0.1'", "unix_socket_directories = '\(socket)'",
            "fsync = off", "full_page_writes = off", "shared_buffers = 32MB",
            "max_connections = 100", "log_connections = on",
        ]
        if tls {
            try Self.makeCertificates(in: directory, data: data, owner: owner)
            settings += ["ssl = on", "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'"]
        }
        // A free port; another program may take it between our look and the postmaster's bind, so a refused bind
        // is tried again on a new port.
        var started: (pid: pid_t, port: Int)?
        for attempt in 1...5 {
            let port = try Self.freePort()
            let file = data + "/postgresql.auto.conf"
            try ("# eSSH test cluster (PostgresCluster)\n" + (settings + ["port = \(port)"]).joined(separator: "\n")
                + "\n").write(toFile: file, atomically: false, encoding: .utf8)
            _ = chown(file, owner.uid, owner.gid)
            let (pid, failure) = try Self.launchAndWait(bin: bin, data: data, log: log, owner: owner)
            if let failure {
                guard attempt < 5, Self.portTaken(failure.newLog) else { throw failure.error }
                continue
            }
            started = (pid, port)
            break
        }
        guard let started else { throw Failure(description: "PostgreSQL did not start") }
        self.directory = directory
        self.version = version
        self.owner = owner
        self.password = password
        binDirectory = bin
        dataDirectory = data
        socketDirectory = socket
        logPath = log
        passFile = directory + "/pgpass"
        caFile = tls ? directory + "/ca.crt" : nil
        port = started.port
        pid = started.pid
        Self.registry.add(self)
        try writePassFile(roles: [])
    }

    deinit { remove() }

    // MARK: - Life

    /// Whether the postmaster runs.
    public var isRunning: Bool {
        lock.withLock { pid } != nil
    }

    /// The postmaster's process id while it runs.
    public var postmasterPID: pid_t? {
        lock.withLock { pid }
    }

    /// Stops the server (fast shutdown: sessions are ended, data is kept) and waits for it; SIGKILL after 15 s.
    /// The folder stays, for `restart()`.
    public func stop() {
        guard let pid = lock.withLock({ () -> pid_t? in defer { self.pid = nil }; return self.pid }) else { return }
        kill(pid, SIGINT)
        _ = ChildProcess.wait(pid, timeout: 15)  // SIGKILL when the time is up
    }

    /// Kills the postmaster and every process it started with SIGKILL, as a crash or a power cut would: open
    /// sessions break at once, nothing is shut down cleanly. `restart()` recovers from the WAL.
    public func kill9() {
        guard let pid = lock.withLock({ () -> pid_t? in defer { self.pid = nil }; return self.pid }) else { return }
        let children = Self.children(of: pid)
        kill(pid, SIGKILL)
        for child in children { kill(child, SIGKILL) }
        _ = ChildProcess.wait(pid)
        // Orphaned backends still attached to the old shared memory would make the next start refuse it.
        for child in children { Self.waitGone(child, timeout: 5) }
    }

    /// Starts the server again on the same port with the same data (after `stop()` or `kill9()`, or while it
    /// runs: it is stopped first), waiting until it accepts connections (after crash recovery).
    public func restart() throws {
        stop()
        guard !lock.withLock({ removed }) else { throw Failure(description: "The cluster was removed.") }
        let deadline = Date().addingTimeInterval(20)
        while true {
            let (pid, failure) = try Self.launchAndWait(bin: binDirectory, data: dataDirectory, log: logPath,
                                                        owner: owner)
            guard let failure else {
                lock.withLock { self.pid = pid }
                return
            }
            // Just after a kill: the port not yet free, or the old shared memory still held by a dying backend.
            guard Self.portTaken(failure.newLog) || failure.newLog.contains("pre-existing shared memory block"),
                  Date() < deadline
            else { throw failure.error }
            usleep(100_000)
        }
    }

    /// Stops the server (immediately) and deletes its folder; the object is of no further use. Safe to call twice.
    public func remove() {
        let pid = lock.withLock { () -> pid_t? in
            defer { self.pid = nil; removed = true }
            return removed ? nil : self.pid
        }
        if let pid {
            kill(pid, SIGQUIT)
            _ = ChildProcess.wait(pid, timeout: 10)  // SIGKILL when the time is up
        }
        Self.registry.remove(self)
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: - Use

    /// A `postgres://` URL for `user` to `database` on this server, with `sslmode` (and `sslrootcert` when given).
    public func url(user: String, database: String, sslmode: String? = nil, sslrootcert: String? = nil,
                    host: String? = nil) -> String
    {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
        var query: [String] = []
        if let sslmode { query.append("sslmode=" + escaped(sslmode)) }
        if let sslrootcert { query.append("sslrootcert=" + escaped(sslrootcert)) }
        return "postgres://\(escaped(user))@\(host ?? self.host):\(port)/\(escaped(database))"
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Runs `sql` (any number of statements) with psql as the superuser over the Unix socket, stopping at the
    /// first error; returns what it printed (unaligned, tuples only: `a|b` lines), without the last newline.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try runPsql(["-h", socketDirectory, "-p", String(port), "-U", superuser, "-d", database,
                                  "-v", "ON_ERROR_STOP=1", "-q", "-A", "-t"], input: sql)
        guard result.status == 0 else {
            throw Failure(description: "psql failed (\(result.status)): \(Self.lastLines(result.err))")
        }
        var out = result.out
        if out.hasSuffix("\n") { out.removeLast() }
        return out
    }

    /// Runs this version's psql with `arguments` (`-X -w` added: no psqlrc, never a password question), a clean
    /// environment (none of the caller's PG* variables) plus `environment`, and `input` on its standard input
    /// (a pipe, never a file).
    public func runPsql(_ arguments: [String], environment: [String: String] = [:], input: String? = nil,
                        timeout: TimeInterval = 60) throws -> RunResult
    {
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PGCONNECT_TIMEOUT": "10"]
        for (key, value) in environment { env[key] = value }
        return try Self.run(binDirectory + "/psql", ["-X", "-w"] + arguments, environment: env, input: input,
                            timeout: timeout)
    }

    /// Creates a role (a login role unless `login` is false) with `password` (scram-hashed by the server; the
    /// text goes to psql on its standard input) and adds it to `passFile`.
    public func createRole(_ name: String, password: String?, login: Bool = true) throws {
        var sql = "CREATE ROLE \(Self.identifier(name)) \(login ? "LOGIN" : "NOLOGIN")"
        if let password { sql += " PASSWORD \(Self.literal(password))" }
        try psql(sql + ";")
        if let password {
            try lock.withLock {
                rolePasswords.append((name, password))
                try writePassFile(roles: rolePasswords)
            }
        }
    }

    /// Creates a database, owned by `owner` when given.
    public func createDatabase(_ name: String, owner: String? = nil) throws {
        try psql("CREATE DATABASE \(Self.identifier(name))" + (owner.map { " OWNER \(Self.identifier($0))" } ?? "")
            + ";")
    }

    /// The server's log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// One pgpass line (`host:port:*:user:password`, with `:` and `\` escaped).
    public static func passLine(host: String, port: Int, user: String, password: String) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
        }
        return "\(escaped(host)):\(port):*:\(escaped(user)):\(escaped(password))"
    }

    /// Writes `lines` as a pgpass file at `path`, mode 0600 from the start (libpq ignores a file others may read).
    public static func writePassFile(_ lines: [String], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "Could not create \(path): \(Self.systemError())") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let text = lines.map { $0 + "\n" }.joined()
        guard Array(text.utf8).withUnsafeBytes({ writeAll(fd, $0) }) else {
            throw Failure(description: "Could not write \(path): \(Self.systemError())")
        }
    }

    private var rolePasswords: [(String, String)] = []

    /// Writes `passFile` anew: the superuser's lines and those of `roles` (called with `lock` held, but at start).
    private func writePassFile(roles: [(String, String)]) throws {
        let entries = [(superuser, password)] + roles
        let lines = entries.flatMap { user, password in
            ["127.0.0.1", "localhost"].map { Self.passLine(host: $0, port: port, user: user, password: password) }
        }
        try Self.writePassFile(lines, to: passFile)
    }

    // MARK: - Starting

    /// Starts the postmaster and waits until it says `ready` in postmaster.pid (as pg_ctl does). Returns its pid,
    /// or the failure with what it wrote to the log meanwhile (the postmaster has then stopped and been reaped).
    private static func launchAndWait(bin: String, data: String, log: String, owner: (uid: uid_t, gid: gid_t)) throws
        -> (pid: pid_t, failure: (error: Failure, newLog: String)?)
    {
        let logStart = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        func newLog() -> String {
            guard let all = FileManager.default.contents(atPath: log), all.count >= logStart else { return "" }
            return String(decoding: all.dropFirst(logStart), as: UTF8.self)
        }
        let pid = try launch(bin: bin, data: data, log: log, owner: owner)
        let pidFile = data + "/postmaster.pid"
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let text = newLog()
                return (pid, (Failure(description: "PostgreSQL stopped while starting: \(lastLines(text))"), text))
            }
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8) {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if lines.count > 7, lines[0] == String(pid), lines[7].trimmingCharacters(in: .whitespaces) == "ready" {
                    return (pid, nil)
                }
            }
            usleep(10_000)
        }
        _ = ChildProcess.wait(pid, timeout: 0)  // kills and reaps it
        let text = newLog()
        return (pid, (Failure(description: "PostgreSQL was not ready within 60 s: \(lastLines(text))"), text))
    }

    private static func portTaken(_ log: String) -> Bool {
        log.contains("could not bind") || log.contains("could not create any TCP/IP sockets")
    }

    /// `postgres -D data` as the postgres user, our child in a session of its own, its output in `log`.
    private static func launch(bin: String, data: String, log: String, owner: (uid: uid_t, gid: gid_t)) throws
        -> pid_t
    {
        let logFD = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard logFD >= 0 else { throw Failure(description: "Could not open \(log)") }
        defer { close(logFD) }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        do {
            return try ChildProcess.spawn(
                "/usr/bin/setpriv", asPostgres(owner) + [bin + "/postgres", "-D", data],
                environment: [:], stdin: null, stdout: logFD, stderr: logFD, closeOtherDescriptors: true,
                newSession: true)
        } catch {
            throw Failure(description: "Could not start PostgreSQL: \(error.reason)")
        }
    }

    /// setpriv's arguments that run the rest as the postgres user, from `/`, with a clean environment (a working
    /// folder under /root could not be read, and initdb needs one it can name).
    private static func asPostgres(_ owner: (uid: uid_t, gid: gid_t)) -> [String] {
        ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--init-groups", "/usr/bin/env", "-i", "-C", "/",
         "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC"]
    }

    /// The newest PostgreSQL under `installations` (`/usr/lib/postgresql/<major>/bin` with initdb, postgres, psql).
    static func installation(in installations: String) throws -> (version: String, bin: String) {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: installations)) ?? [])
            .filter { version in
                ["initdb", "postgres", "psql"].allSatisfy {
                    FileManager.default.isExecutableFile(atPath: "\(installations)/\(version)/bin/\($0)")
                }
            }
            .sorted { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }
        guard let version = versions.last else {
            throw Failure(description: "PostgreSQL is not installed (no \(installations)/<version>/bin/postgres): "
                + "run `make test`, which installs Debian's postgresql, or `apt-get install postgresql`.")
        }
        return (version, "\(installations)/\(version)/bin")
    }

    /// `/run/essh-test/<16 hex of sha256(STATE)>-pg`, the harness's AUTH folder name with `-pg`: root-owned and
    /// 0755 all the way, so the postgres user reaches it wherever the checkout is.
    static func clustersFolder(state: String?) throws -> String {
        let state = state ?? ProcessInfo.processInfo.environment["ESSH_TEST_STATE"]
            ?? (RepoPaths.root + "/.test-servers")
        let digest = try run("/usr/bin/sha256sum", [], input: state, timeout: 10)
        guard digest.status == 0, digest.out.count >= 16 else { throw Failure(description: "sha256sum failed") }
        let base = "/run/essh-test/" + digest.out.prefix(16) + "-pg"
        try makeFolder("/run/essh-test", mode: 0o755)
        try makeFolder(base, mode: 0o755)
        return base
    }

    private static func makeFolder(_ path: String, mode: mode_t) throws {
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw Failure(description: "Could not create \(path): \(Self.systemError())")
        }
        chmod(path, mode)
    }

    /// A throwaway CA (ca.crt in `directory`; its key is deleted) and a server certificate it signed for
    /// `localhost` only, with its key, in the data directory, owned by postgres, 0600 as the server requires.
    private static func makeCertificates(in directory: String, data: String, owner: (uid: uid_t, gid: gid_t)) throws {
        let ca = directory + "/ca", server = data + "/server"
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let extensions = directory + "/server.ext"
        try [
            "subjectAltName = DNS:localhost", "basicConstraints = critical, CA:FALSE",
            "keyUsage = critical, digitalSignature", "extendedKeyUsage = serverAuth", "",
        ].joined(separator: "\n").write(toFile: extensions, atomically: false, encoding: .utf8)
        defer {
            unlink(ca + ".key")
            unlink(extensions)
            unlink(server + ".csr")
            unlink(directory + "/ca.srl")
        }
        let steps: [[String]] = [
            ["req", "-x509"] + ec + ["-keyout", ca + ".key", "-out", ca + ".crt", "-days", "2",
                                     "-subj", "/CN=eSSH test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req", "-new"] + ec + ["-keyout", server + ".key", "-out", server + ".csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", server + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key", "-CAcreateserial",
             "-days", "2", "-extfile", extensions, "-out", server + ".crt"],
        ]
        for step in steps {
            let result = try run("/usr/bin/openssl", step, environment: ["PATH": "/usr/bin:/bin"], timeout: 30)
            guard result.status == 0 else {
                throw Failure(description: "openssl \(step[0]) failed: \(lastLines(result.err))")
            }
        }
        for file in [server + ".key", server + ".crt"] {
            chown(file, owner.uid, owner.gid)
            chmod(file, 0o600)
        }
        chmod(ca + ".crt", 0o644)
    }

    // MARK: - Processes

    /// Runs a program to its end, `input` on a pipe (never a file, so a password is not written anywhere), its
    /// output in temporary files (a program leaving a daemon behind does not keep us waiting). Killed after
    /// `timeout` seconds.
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                    input: String? = nil, timeout: TimeInterval) throws -> RunResult
    {
        let base = NSTemporaryDirectory() + "essh-pg-\(getpid())-\(randomHex(bytes: 6))"
        let outPath = base + ".out", errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let output = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errors = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { [output, errors].forEach { if $0 >= 0 { close($0) } } }
        guard output >= 0, errors >= 0, let (readEnd, writeEnd) = CloseOnExec.pipe() else {
            throw Failure(description: "Could not prepare to run \(path): \(Self.systemError())")
        }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(path, arguments, environment: environment, stdin: readEnd, stdout: output,
                                         stderr: errors, closeOtherDescriptors: true, newSession: true)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw Failure(description: "Could not start \(path): \(error.reason)")
        }
        close(readEnd)
        let bytes = Array((input ?? "").utf8)
        let writer = Thread {
            // A program that exits without reading it all (psql that could not connect) makes write fail with
            // EPIPE; the SIGPIPE that comes with it is blocked here, this thread's, and dies with it (as LocalPipe).
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            _ = bytes.withUnsafeBytes { writeAll(writeEnd, $0) }
            close(writeEnd)
        }
        writer.start()
        let status = ChildProcess.wait(pid, timeout: timeout)?.shellStatus ?? 128 + SIGKILL
        return RunResult(status: status, stdout: FileManager.default.contents(atPath: outPath) ?? Data(),
                         stderr: FileManager.default.contents(atPath: errPath) ?? Data())
    }

    /// The processes whose parent is `pid` (from /proc).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { processInfo($0)?.parent == pid }
    }

    /// A process's state letter and parent from /proc/PID/stat, or nil when it is gone.
    static func processInfo(_ pid: pid_t) -> (state: Character, parent: pid_t)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return (state, parent)
    }

    /// Whether `pid` is a live process (not gone, not a zombie nobody reaped).
    public static func isAlive(_ pid: pid_t) -> Bool {
        guard let info = processInfo(pid) else { return false }
        return info.state != "Z" && info.state != "X"
    }

    private static func waitGone(_ pid: pid_t, timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        while isAlive(pid) && Date() < deadline { usleep(10_000) }
    }

    // MARK: - Small pieces

    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func systemError() -> String { String(cString: strerror(errno)) }

    static func lastLines(_ text: String, count: Int = 3) -> String {
        let lines = text.split(separator: "\n").suffix(count)
        return lines.isEmpty ? "(no output)" : lines.joined(separator: " / ")
    }

    static func freePort() throws -> Int {
        do { return try ExtraSSHD.freePort() } catch { throw Failure(description: "No free port on 127.0.0.1") }
    }

    // MARK: - At exit

    /// The clusters of this process still running, stopped (immediately) and deleted when the process exits, so a
    /// test that forgot `remove()` leaves nothing behind. A process that is killed leaves them to the harness's
    /// `stop`.
    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var clusters: [ObjectIdentifier: (pid: () -> pid_t?, directory: String)] = [:]
        private var installed = false

        func add(_ cluster: PostgresCluster) {
            lock.withLock {
                clusters[ObjectIdentifier(cluster)] = ({ [weak cluster] in cluster?.postmasterPID }, cluster.directory)
                if !installed {
                    installed = true
                    atexit { PostgresCluster.registry.stopAll() }
                }
            }
        }

        func remove(_ cluster: PostgresCluster) {
            _ = lock.withLock { clusters.removeValue(forKey: ObjectIdentifier(cluster)) }
        }

        func stopAll() {
            let all = lock.withLock { () -> [(pid: () -> pid_t?, directory: String)] in
                defer { clusters = [:] }
                return Array(clusters.values)
            }
            for (pid, directory) in all {
                if let pid = pid() {
                    kill(pid, SIGQUIT)
                    _ = ChildProcess.wait(pid, timeout: 5)
                }
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
    }
}
