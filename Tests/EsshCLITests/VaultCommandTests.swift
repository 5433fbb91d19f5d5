import Foundation
import LocalProcess
import Testing
import TestSupport
import Vault

/// `essh vault …` driven as a person or a script drives it: the real binary, a database with saved servers, the
/// vault under a temporary XDG_DATA_HOME, the agent's socket under a temporary XDG_RUNTIME_DIR. The passphrase comes
/// from vault.passphrase_command (`cat FILE`), from a pseudo-terminal, or from the agent. Work factor 2^10: scrypt in
/// a debug build is ten times slower than in a release one.
@Suite(.serialized) struct VaultCommandTests {
    static let passphrase = "vault passphrase ✓"

    /// A home with a database holding servers db1, db2, web, a passphrase file and the passphrase command set.
    struct Home {
        let dir: TempDir
        var vaultPath: String { dir.file("data/essh/vault.age") }
        var environment: [String: String] {
            ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path, "XDG_DATA_HOME": dir.file("data"),
             "XDG_RUNTIME_DIR": dir.file("run")]
        }

        init(servers: [String] = ["db1", "db2", "web"], dataHome: String? = nil) throws {
            dir = try TempDir()
            mkdir(dir.file("run"), 0o700)
            if let dataHome { symlink(dataHome, dir.file("data")) }
            for name in servers {
                let r = try Binary.runEssh(["servers", "add", name, "--host", "127.0.0.1"], environment: environment)
                #expect(r.status == 0, "\(r.err)")
            }
            try writePrivate(VaultCommandTests.passphrase + "\n", "passphrase")
            let set = try essh(["config", "set", "vault.passphrase_command", "cat " + dir.file("passphrase")])
            #expect(set.status == 0, "\(set.err)")
        }

        func essh(_ args: [String]) throws -> RunResult {
            try Binary.runEssh(args, environment: environment)
        }

        @discardableResult
        func writePrivate(_ text: String, _ name: String, mode: mode_t = 0o600) throws -> String {
            let path = dir.file(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, mode)
            return path
        }

        func vaultBytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: vaultPath))) }

        /// The document, opened as any age reader would: the passphrase, no eSSH code but the format's.
        func document() throws -> VaultDocument {
            try VaultDocument.decode(try AgeFile.decrypt(try vaultBytes(), passphrase: Array(VaultCommandTests.passphrase.utf8),
                                                         maxWorkFactor: 21))
        }

        func initVault() throws {
            let r = try essh(["vault", "init", "--work-factor", "10"])
            #expect(r.status == 0 && r.out.contains("Made the vault \(vaultPath)"), "\(r.err)")
        }

        func cleanup() {
            _ = try? essh(["vault", "lock"])
            dir.cleanup()
        }
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func initSetListRemoveAndTheFileIsAnAgeFileOfJSON() throws {
        let home = try Home()
        defer { home.cleanup() }
        try home.initVault()
        #expect(mode(home.vaultPath) == 0o600 && mode(home.dir.file("data/essh")) == 0o700)
        let secret = try home.writePrivate("hunter2 ✓\n", "secret")
        var r = try home.essh(["vault", "set", "db1", "--secret-file", secret])
        #expect(r.status == 0 && r.out == "Stored password for db1 in the vault.\n", "\(r.err)")
        let key = try home.writePrivate("key pass", "keypass")
        r = try home.essh(["vault", "set", "db1", "--passphrase", "~/.ssh/id_ed25519", "--secret-file", key])
        #expect(r.status == 0, "\(r.err)")
        let fd3 = try home.writePrivate("web pass", "webpass")
        r = try Binary.run("/bin/sh", ["-c", "exec \"$0\" vault set web --secret-fd 3 3<\"$1\"", Binary.essh, fd3],
                           environment: home.environment)
        #expect(r.status == 0, "\(r.err)")

        let document = try home.document()
        let db1 = try #require(document.entries.values.first { $0.name == "db1" })
        #expect(db1.password?.text == "hunter2 ✓", "one final newline dropped")
        #expect(db1.keyPassphrases[home.dir.path + "/.ssh/id_ed25519"]?.text == "key pass")
        #expect(document.entries.values.first { $0.name == "web" }?.password?.text == "web pass")

        r = try home.essh(["vault", "list"])
        #expect(r.status == 0 && r.out.contains("db1") && r.out.contains("password, passphrase ")
            && r.out.contains("web"), "\(r.out)\(r.err)")
        let json = try home.essh(["vault", "list", "--json"])
        #expect(json.status == 0 && json.out.contains("\"name\" : \"db1\""))
        for secretText in ["hunter2", "key pass", "web pass", VaultCommandTests.passphrase] {
            #expect(!json.out.contains(secretText) && !r.out.contains(secretText))
        }

        r = try home.essh(["vault", "rm", "db1", "--password"])
        #expect(r.status == 0, "\(r.err)")
        #expect(try home.document().entries.values.first { $0.name == "db1" }?.password == nil)
        r = try home.essh(["vault", "rm", "web"])
        let afterRemove = try home.document()
        #expect(r.status == 0 && !afterRemove.entries.values.contains { $0.name == "web" }, "\(r.err)")
        r = try home.essh(["vault", "rm", "web"])
        #expect(r.status == 2 && r.err.contains("holds nothing for web"), "\(r.err)")

        let status = try home.essh(["vault", "status"])
        #expect(status.out.contains(home.vaultPath) && status.out.contains("scrypt 2^10") && status.out.contains("locked"),
                "\(status.out)")
    }

    @Test func badInputIsRefusedClearlyAndChangesNothing() throws {
        let home = try Home()
        defer { home.cleanup() }
        var r = try home.essh(["vault", "list"])
        #expect(r.status == 2 && r.err.contains("There is no vault at \(home.vaultPath)") && r.err.contains("vault init"))
        try home.initVault()
        let before = try home.vaultBytes()
        r = try home.essh(["vault", "init", "--work-factor", "10"])
        #expect(r.status == 2 && r.err.contains("already exists"), "\(r.err)")

        let open = try home.writePrivate("s3cret", "open-secret", mode: 0o644)
        r = try home.essh(["vault", "set", "db1", "--secret-file", open])
        #expect(r.status == 2 && r.err.contains("can be read by group or others") && r.err.contains("chmod 600"), "\(r.err)")
        let secret = try home.writePrivate("s3cret", "secret")
        r = try home.essh(["vault", "set", "nosuch", "--secret-file", secret])
        #expect(r.status == 2 && r.err.contains("nosuch"), "\(r.err)")
        r = try home.essh(["vault", "set", "db1", "--secret-file", home.dir.file("missing")])
        #expect(r.status == 2 && r.err.contains(home.dir.file("missing")), "\(r.err)")
        r = try home.essh(["vault", "set", "db1", "--secret-file", secret, "--secret-fd", "0"])
        #expect(r.status == 64)
        r = try home.essh(["vault", "init", "--work-factor", "40"])
        #expect(r.status == 64 && r.err.contains("--work-factor"))
        #expect(try home.vaultBytes() == before)

        // The wrong passphrase: refused, nothing rewritten.
        try home.writePrivate("not it\n", "passphrase")
        r = try home.essh(["vault", "set", "db1", "--secret-file", secret])
        #expect(r.status == 2 && r.err.contains("Wrong passphrase") && r.err.contains("left as it is"), "\(r.err)")
        #expect(try home.vaultBytes() == before)
        try home.writePrivate(VaultCommandTests.passphrase, "passphrase")

        // A damaged vault is never rewritten.
        var flipped = before
        flipped[flipped.count - 3] ^= 0x01
        for damaged in [[], Array(before.dropLast(5)), flipped] as [[UInt8]] {
            try Data(damaged).write(to: URL(fileURLWithPath: home.vaultPath))
            r = try home.essh(["vault", "set", "db1", "--secret-file", secret])
            #expect(r.status == 2 && r.err.contains("left as it is"), "\(r.err)")
            #expect(try home.vaultBytes() == damaged)
        }
    }

    @Test func passphraseChangeMakesANewKeyAndExportOpensWithAge() throws {
        let home = try Home()
        defer { home.cleanup() }
        try home.initVault()
        let secret = try home.writePrivate("s3cret", "secret")
        #expect(try home.essh(["vault", "set", "db2", "--secret-file", secret]).status == 0)
        let newPassphrase = try home.writePrivate("second passphrase", "new")
        var r = try home.essh(["vault", "passwd", "--work-factor", "11", "--secret-file", newPassphrase])
        #expect(r.status == 0 && r.out.contains("2^11"), "\(r.err)")
        r = try home.essh(["vault", "list"])
        #expect(r.status == 2 && r.err.contains("Wrong passphrase"), "the old passphrase no longer opens it: \(r.err)")
        try home.writePrivate("second passphrase", "passphrase")
        #expect(try home.essh(["vault", "list"]).out.contains("db2"))

        let copy = home.dir.file("copy.age")
        r = try home.essh(["vault", "export-age", copy])
        #expect(r.status == 0 && mode(copy) == 0o600, "\(r.err)")
        r = try home.essh(["vault", "export-age", copy])
        #expect(r.status == 2, "an existing file is not overwritten")
        // A bare file name is written in the current folder.
        r = try Binary.run("/bin/sh", ["-c", "cd \"$1\" && exec \"$0\" vault export-age here.age", Binary.essh,
                                       home.dir.path], environment: home.environment)
        #expect(r.status == 0 && mode(home.dir.file("here.age")) == 0o600, "\(r.err)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/age") else {
            Issue.record("/usr/bin/age is missing: install Debian's age package (make test-deps)")
            return
        }
        for file in [copy, home.vaultPath] {
            let out = home.dir.file("plain-\(UUID().uuidString)")
            let age = try PseudoTerminal.run("/usr/bin/age", ["-d", "-o", out, file],
                                             answers: [("passphrase", "second passphrase")])
            #expect(age.status == 0, "\(age.transcript)")
            let json = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
            #expect(json.contains("\"format\" : 1") && json.contains("\"name\" : \"db2\"") && json.contains("s3cret"))
        }
    }

    /// The escape hatch the other way: a vault written by Debian's `age -p` from eSSH's JSON opens in eSSH.
    @Test func aVaultWrittenByAgeOpensInEssh() throws {
        let home = try Home()
        defer { home.cleanup() }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/age") else {
            Issue.record("/usr/bin/age is missing: install Debian's age package (make test-deps)")
            return
        }
        let json = """
            {"format": 1, "entries": {"server-9": {"name": "by age", "password": "from age",
             "keyPassphrases": {}, "answers": {"Code: ": "42"},
             "created": "2026-11-24T10:00:00Z", "changed": "2026-11-24T11:00:00Z"}}}
            """
        let plain = try home.writePrivate(json, "plain.json")
        try FileManager.default.createDirectory(atPath: home.dir.file("data/essh"), withIntermediateDirectories: true)
        let age = try PseudoTerminal.run("/usr/bin/age", ["-p", "-o", home.vaultPath, plain],
                                         answers: [("Enter passphrase", VaultCommandTests.passphrase),
                                                   ("Confirm passphrase", VaultCommandTests.passphrase)])
        #expect(age.status == 0, "\(age.transcript)")
        let r = try home.essh(["vault", "list", "--json"])
        #expect(r.status == 0 && r.out.contains("\"name\" : \"by age\"") && r.out.contains("answer \\\"Code: \\\""),
                "\(r.out)\(r.err)")
        #expect(!r.out.contains("from age") && !r.out.contains("42"))
        #expect(try home.essh(["vault", "status"]).out.contains("scrypt 2^18"), "age's own work factor")
    }

    /// The terminal: the passphrase and the secret are asked without echo (the transcript never shows them).
    @Test func asksOnTheTerminalWithoutEcho() throws {
        let home = try Home()
        defer { home.cleanup() }
        #expect(try home.essh(["config", "unset", "vault.passphrase_command"]).status == 0)
        let run = { (args: [String], answers: [(String, String)]) in
            try PseudoTerminal.run(Binary.essh, args, environment: home.environment, answers: answers)
        }
        var r = try run(["vault", "init", "--work-factor", "10"],
                        [("New vault passphrase:", "typed passphrase"), ("Again", "typed passphrase")])
        #expect(r.status == 0 && !r.transcript.contains("typed passphrase"), "\(r.transcript)")
        r = try run(["vault", "set", "db1"], [("Vault passphrase:", "typed passphrase"),
                                              ("Password for db1:", "typed secret"), ("Again", "typed secret")])
        #expect(r.status == 0 && r.transcript.contains("Stored password for db1"), "\(r.transcript)")
        #expect(!r.transcript.contains("typed secret") && !r.transcript.contains("typed passphrase"))
        r = try run(["vault", "set", "db2"], [("Vault passphrase:", "typed passphrase"),
                                              ("Password for db2:", "one"), ("Again", "two")])
        #expect(r.status == 2 && r.transcript.contains("differ"), "\(r.transcript)")
        let plaintext = try AgeFile.decrypt(try home.vaultBytes(), passphrase: Array("typed passphrase".utf8),
                                            maxWorkFactor: 21)
        let entries = try VaultDocument.decode(plaintext).entries.values
        #expect(entries.count == 1 && entries.first?.password?.text == "typed secret")
        // No terminal and no command: a clear sentence.
        let none = try home.essh(["vault", "list"])
        #expect(none.status == 2 && none.err.contains("No terminal to ask the vault passphrase"), "\(none.err)")
    }

    @Test func theAgentServesTheKeyLocksAndIsHardened() throws {
        let home = try Home()
        defer { home.cleanup() }
        try home.initVault()
        var r = try home.essh(["vault", "unlock", "--for", "30"])
        #expect(r.status == 0 && r.out.contains("The vault is unlocked"), "\(r.err)")
        let socket = home.dir.file("run/essh/vault.sock")
        #expect(mode(socket) == 0o600 && mode(home.dir.file("run/essh")) == 0o700)
        let status = try home.essh(["vault", "status"])
        #expect(status.out.contains("unlocked by the agent"), "\(status.out)")
        let pid = try #require(status.out.split(separator: " ").firstIndex(of: "(pid").map {
            Int32(status.out.split(separator: " ")[$0 + 1].trimmingCharacters(in: CharacterSet(charactersIn: ",")))
        } ?? nil)

        // With the agent, no passphrase is needed: the command now fails if it is run.
        #expect(try home.essh(["config", "set", "vault.passphrase_command", "false"]).status == 0)
        let secret = try home.writePrivate("agent-era secret", "secret")
        r = try home.essh(["vault", "set", "db1", "--secret-file", secret])
        #expect(r.status == 0, "\(r.err)")

        // Hardened: no core dumps; no passphrase or secret in its argv or environment.
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        #expect(limits.split(separator: "\n").contains {
            $0.hasPrefix("Max core file size") && $0.split(separator: " ").dropFirst(4).first == "0"
        }, "\(limits)")
        for file in ["cmdline", "environ"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/\(file)"))) ?? Data()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(VaultCommandTests.passphrase) && !text.contains("agent-era secret"))
        }
        let statusFile = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        // The key's page is locked in memory (root's RLIMIT_MEMLOCK allows it).
        let locked = statusFile.split(separator: "\n").first { $0.hasPrefix("VmLck:") }
            .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) }
        #expect((locked ?? 0) > 0, "\(statusFile)")

        r = try home.essh(["vault", "lock"])
        #expect(r.status == 0 && r.out.contains("locked"), "\(r.err)")
        #expect(ChildProcessGone.wait(pid), "the agent ended")
        #expect(!FileManager.default.fileExists(atPath: socket), "its socket removed")
        r = try home.essh(["vault", "list"])
        #expect(r.status == 1 && r.err.contains("vault.passphrase_command: false exited with status 1"), "locked again: \(r.err)")
        #expect(try home.essh(["vault", "lock"]).out.contains("was not unlocked"))
    }

    @Test func theAgentLocksItselfWhenIdle() throws {
        let home = try Home()
        defer { home.cleanup() }
        try home.initVault()
        #expect(try home.essh(["vault", "unlock", "--for", "2"]).status == 0)
        #expect(try home.essh(["vault", "status"]).out.contains("unlocked by the agent"))
        Thread.sleep(forTimeInterval: 3.5)
        #expect(try home.essh(["vault", "status"]).out.contains("state   locked"))
        #expect(!FileManager.default.fileExists(atPath: home.dir.file("run/essh/vault.sock")))
    }

    /// Signals and a removed socket (XDG_RUNTIME_DIR goes at logout) end the agent too, the key with it.
    @Test func theAgentEndsOnSIGTERMAndWhenItsSocketIsRemoved() throws {
        let home = try Home()
        defer { home.cleanup() }
        try home.initVault()
        let socket = home.dir.file("run/essh/vault.sock")
        for ending in ["SIGTERM", "socket removed"] {
            let r = try home.essh(["vault", "unlock", "--for", "60"])
            let words = r.out.split(separator: " ")
            let pid = try #require(words.firstIndex(of: "(agent").flatMap { Int32(words[$0 + 1]) }, "\(r.out)\(r.err)")
            if ending == "SIGTERM" { kill(pid, SIGTERM) } else { unlink(socket) }
            #expect(ChildProcessGone.wait(pid, timeout: 8), "\(ending): the agent ended")
            #expect(!FileManager.default.fileExists(atPath: socket))
            #expect(try home.essh(["vault", "status"]).out.contains("state   locked"))
        }
    }

    /// Two processes writing different entries at once, again and again: every entry is kept.
    @Test func concurrentWritersLoseNothing() throws {
        let names = (1...8).map { "s\($0)" }
        let home = try Home(servers: names)
        defer { home.cleanup() }
        try home.initVault()
        let secret = try home.writePrivate("same secret", "secret")
        let failures = ResultBox()
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let r = try? home.essh(["vault", "set", names[index], "--secret-file", secret])
            if r?.status != 0 { failures.add("\(names[index]): \(r?.err ?? "did not run")") }
        }
        #expect(failures.items.isEmpty, "\(failures.items)")
        #expect(Set(try home.document().entries.values.map(\.name)) == Set(names))
    }

    /// kill -9 at random moments of a write: the vault is always the old or the new one, never broken.
    @Test func killedWritesLeaveTheOldOrTheNewVault() throws {
        let names = (1...12).map { "k\($0)" }
        let home = try Home(servers: names)
        defer { home.cleanup() }
        try home.initVault()
        // A large secret makes each write take long enough to be hit.
        let secret = try home.writePrivate(String(repeating: "x", count: 400_000), "secret")
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in home.environment { environment[key] = value }
        var generator = SystemRandomNumberGenerator()
        var stored = Set<String>()
        for name in names {
            let pid = try ChildProcess.spawn(Binary.essh, ["vault", "set", name, "--secret-file", secret],
                                             environment: environment, stdout: open("/dev/null", O_WRONLY | O_CLOEXEC),
                                             stderr: open("/dev/null", O_WRONLY | O_CLOEXEC))
            usleep(UInt32.random(in: 20_000...400_000, using: &generator))
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            let document = try home.document()  // throws if the vault were broken
            let now = Set(document.entries.values.map(\.name))
            #expect(now.isSuperset(of: stored) && now.subtracting(stored).isSubset(of: [name]))
            stored = now
        }
        // A killed writer's temporary file is removed by the next write, under the lock.
        let small = try home.writePrivate("small", "small")
        #expect(try home.essh(["vault", "set", "k1", "--secret-file", small]).status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: home.dir.file("data/essh")).sorted()
        #expect(left == ["vault.age", "vault.age.lock"], "\(left)")
    }

    /// A full disk (a small tmpfs): the write fails with a sentence and the old vault is intact, no file left over.
    @Test func aFullDiskFailsCleanly() throws {
        let tmpfs = try SmallTmpfs(bytes: 512 * 1024, owner: "root")
        defer { tmpfs.remove() }
        let home = try Home(dataHome: tmpfs.path)
        defer { home.cleanup() }
        try home.initVault()
        let first = try home.writePrivate("small", "small")
        #expect(try home.essh(["vault", "set", "db1", "--secret-file", first]).status == 0)
        let before = try home.vaultBytes()
        // Fill the disk to within a few kilobytes.
        let filler = tmpfs.path + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        let block = [UInt8](repeating: 7, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == 4096 {}
        close(fd)
        let big = try home.writePrivate(String(repeating: "y", count: 200_000), "big")
        let r = try home.essh(["vault", "set", "db2", "--secret-file", big])
        #expect(r.status == 2 && r.err.contains("disk (or your quota) is full") && r.err.contains(home.vaultPath), "\(r.err)")
        #expect(try home.vaultBytes() == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: tmpfs.path + "/essh").sorted()
        #expect(left == ["vault.age", "vault.age.lock"], "\(left)")
        unlink(filler)
        #expect(try home.essh(["vault", "set", "db2", "--secret-file", big]).status == 0, "works again with space")
    }
}

/// Strings collected from several threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func add(_ item: String) { lock.lock(); collected.append(item); lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return collected }
}

/// Waiting for a process that is not our child to end.
enum ChildProcessGone {
    static func wait(_ pid: Int32, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            usleep(50_000)
        }
        return false
    }
}
