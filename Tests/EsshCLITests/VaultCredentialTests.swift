import Foundation
import LocalProcess
import Testing
import TestSupport

/// The `vault` credential source end to end (issue 17 §2 and §4): saved servers log in with the passwords the vault
/// holds for each of them, the vault is unlocked once per run, and afterwards the password is nowhere it should not
/// be — not in the database, its WAL, the log, the vault's bytes, the process's argv or environment, nor any output.
@Suite(.serialized) struct VaultCredentialTests {
    static let passphrase = "vault passphrase for credentials"

    /// A home of its own: database, vault, runtime and state folders, and the passphrase command counting its runs.
    struct Home {
        let dir: TempDir
        var environment: [String: String] {
            ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path, "XDG_DATA_HOME": dir.file("data"),
             "XDG_RUNTIME_DIR": dir.file("run"), "XDG_STATE_HOME": dir.file("state")]
        }
        var unlocks: Int {
            ((try? String(contentsOfFile: dir.file("unlocks"), encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        init() throws {
            dir = try TempDir()
            mkdir(dir.file("run"), 0o700)
            let passphrase = writePrivate(VaultCredentialTests.passphrase + "\n", "passphrase")
            // The passphrase command notes each run, so a test can count the unlocks.
            let script = writePrivate("#!/bin/sh\necho run >> \(dir.file("unlocks"))\nexec cat \(passphrase)\n",
                                      "passphrase-command", mode: 0o700)
            let set = try essh(["config", "set", "vault.passphrase_command", script])
            #expect(set.status == 0, "\(set.err)")
            let made = try essh(["vault", "init", "--work-factor", "10"])
            #expect(made.status == 0, "\(made.err)")
        }

        func essh(_ args: [String], timeout: TimeInterval = 30) throws -> RunResult {
            try Binary.runEssh(args, environment: environment, timeout: timeout)
        }

        @discardableResult
        func writePrivate(_ text: String, _ name: String, mode: mode_t = 0o600) -> String {
            let path = dir.file(name)
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
            return path
        }

        /// Adds a password server with `credential` at `host` (every 127/8 address reaches the test sshd).
        func addServer(_ s: TestServers, _ name: String, host: String = "127.0.0.1", credential: String) throws {
            let r = try essh(["servers", "add", name, "--host", host, "--port", String(s.port), "--user", s.user,
                              "--auth", "password", "--credential", credential, "--tag", "fleet"])
            #expect(r.status == 0, "\(r.err)")
        }

        /// Stores `password` for `name` in the vault from a file removed at once.
        func store(_ password: String, for name: String) throws {
            let file = writePrivate(password + "\n", "password-for-\(name)")
            defer { unlink(file) }
            let r = try essh(["vault", "set", name, "--secret-file", file])
            #expect(r.status == 0, "\(r.err)")
        }

        /// Every regular file under the home, with its bytes.
        func files() -> [(path: String, bytes: [UInt8])] {
            let enumerator = FileManager.default.enumerator(atPath: dir.path)
            var found: [(String, [UInt8])] = []
            while let relative = enumerator?.nextObject() as? String {
                let path = dir.file(relative)
                var info = stat()
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                      let data = FileManager.default.contents(atPath: path) else { continue }
                found.append((path, Array(data)))
            }
            return found
        }

        func cleanup() {
            _ = try? essh(["vault", "lock"])
            dir.cleanup()
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func aVaultServerLogsInAndThePasswordIsNowhereElse() throws {
        let s = try TestServers.require()
        let home = try Home()
        defer { home.cleanup() }
        try home.addServer(s, "box", credential: "vault")
        try home.addServer(s, "typed", credential: "ask")
        try home.store(s.password, for: "box")
        let before = home.unlocks

        var r = try home.essh(["exec", "box", "--known-hosts", s.knownHosts, "--", "id -un"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == s.user + "\n")
        #expect(home.unlocks - before == 1, "one unlock for the run")

        // While a vault login's command runs: its argv and environment hold no password.
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in home.environment { environment[key] = value }
        let pid = try ChildProcess.spawn(Binary.product("essh"),
                                         ["exec", "box", "--known-hosts", s.knownHosts, "--", "sleep 3"],
                                         environment: environment, stdin: null, stdout: null, stderr: null,
                                         closeOtherDescriptors: true, newSession: true)
        let deadline = Date().addingTimeInterval(20)
        var seenLoggedIn = false
        while Date() < deadline && !seenLoggedIn {
            usleep(100_000)
            // The remote `sleep 3` runs once the login is done: the password went through this process by then.
            let remote = try Binary.run("/usr/bin/pgrep", ["-u", s.user, "-f", "^sleep 3$"])
            seenLoggedIn = remote.status == 0
        }
        #expect(seenLoggedIn, "the vault login's command started")
        for part in ["cmdline", "environ"] {
            let bytes = Array(FileManager.default.contents(atPath: "/proc/\(pid)/\(part)") ?? Data())
            #expect(!bytes.isEmpty, "/proc/\(pid)/\(part) was read")
            #expect(!Self.contains(bytes, s.password), "the password in /proc/PID/\(part)")
        }
        #expect(ChildProcess.wait(pid, timeout: 20) == .exited(0))

        // A typed password for the `ask` server, on a terminal as a person types it.
        let typed = try PseudoTerminal.run(Binary.product("essh"),
                                           ["exec", "typed", "--known-hosts", s.knownHosts, "--", "echo typed-ok"],
                                           environment: home.environment, answers: [("assword", s.password)])
        #expect(typed.status == 0 && typed.transcript.contains("typed-ok"), "\(typed.transcript)")
        #expect(!typed.transcript.contains(s.password), "not echoed")

        r = try home.essh(["vault", "list", "--json"])
        #expect(r.status == 0 && r.out.contains("box"), "\(r.err)")
        #expect(!r.out.contains(s.password))

        // Every file eSSH left: the database, its WAL and shared memory, the log, the vault.
        let files = home.files()
        let names = Set(files.map { ($0.path as NSString).lastPathComponent })
        #expect(names.contains("essh.db") && names.contains("vault.age"), "\(names)")
        for file in files {
            #expect(!Self.contains(file.bytes, s.password), "the password in \(file.path)")
        }
    }

    @Test func aFleetUnlocksOnceAndEachServerGetsItsOwnPassword() throws {
        let s = try TestServers.require()
        let home = try Home()
        defer { home.cleanup() }
        try home.addServer(s, "right1", host: "127.0.0.1", credential: "vault")
        try home.addServer(s, "right2", host: "127.0.0.2", credential: "vault")
        try home.addServer(s, "wrong", host: "127.0.0.3", credential: "vault")
        try home.addServer(s, "missing", host: "127.0.0.4", credential: "vault")
        try home.store(s.password, for: "right1")
        try home.store(s.password, for: "right2")
        try home.store("not-" + s.password, for: "wrong")
        let before = home.unlocks

        let r = try home.essh(["exec", "--tag", "fleet", "--json", "--known-hosts", s.knownHosts, "--", "id -un"],
                              timeout: 60)
        #expect(r.status == 1, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let list = object?["results"] as? [[String: Any]] ?? []
        let byName = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["right1"]?["status"] as? String == "ok", "\(byName)")
        #expect(byName["right2"]?["status"] as? String == "ok")
        // Its own (wrong) password, not another server's right one.
        #expect(byName["wrong"]?["status"] as? String == "auth-failed")
        #expect(byName["missing"]?["status"] as? String == "auth-failed")
        let missing = byName["missing"]?["error"] as? String ?? ""
        #expect(missing.contains("The vault holds no password for this server"), "\(missing)")
        #expect(home.unlocks - before == 1, "one unlock for the whole run")
        #expect(!r.out.contains(s.password) && !r.err.contains(s.password))
    }

    @Test func aKeysPassphraseComesFromTheVault() throws {
        let s = try TestServers.require()
        let home = try Home()
        defer { home.cleanup() }
        let key = s.key("id_ed25519_pass")
        var r = try home.essh(["servers", "add", "kp", "--host", s.host, "--port", String(s.port), "--user", s.user,
                               "--key", key, "--credential", "vault"])
        #expect(r.status == 0, "\(r.err)")
        let file = home.writePrivate(s.passphrase + "\n", "key-passphrase")
        r = try home.essh(["vault", "set", "kp", "--passphrase", key, "--secret-file", file])
        unlink(file)
        #expect(r.status == 0, "\(r.err)")
        r = try home.essh(["exec", "kp", "--known-hosts", s.knownHosts, "-v", "--", "id -un"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == s.user + "\n")
        #expect(r.err.contains("id_ed25519_pass"), "logged in with the key: \(r.err)")
        #expect(!r.err.contains(s.passphrase) && !r.out.contains(s.passphrase))
    }

    @Test func aGeneratedKeysPassphraseIsRememberedForAServer() throws {
        let s = try TestServers.require()
        let home = try Home()
        defer { home.cleanup() }
        try home.addServer(s, "box", credential: "vault")
        let passphrase = home.writePrivate("new key passphrase\n", "new-passphrase")
        let keyFile = home.dir.file("id_new")
        var r = try home.essh(["key", "generate", "--file", keyFile, "--passphrase-file", passphrase,
                               "--remember", "box"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Stored its passphrase for box in the vault."), "\(r.out)")
        r = try home.essh(["vault", "list", "--json"])
        #expect(r.out.contains(keyFile) && !r.out.contains("new key passphrase"), "\(r.out)")

        // No such server: refused before any key is made.
        r = try home.essh(["key", "generate", "--file", home.dir.file("id_other"), "--passphrase-file", passphrase,
                           "--remember", "nosuch"])
        #expect(r.status != 0 && r.err.contains("nosuch"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: home.dir.file("id_other")))
    }
}
