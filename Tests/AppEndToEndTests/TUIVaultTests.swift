import Foundation
import Testing
import TestSupport

/// The vault in the real interface against the test sshd: a vault made with `essh vault init` and `essh vault set`
/// (work factor 2^10), a saved server whose credential source is the vault, its passphrase asked once and the
/// process then undumpable, no question on the next connection, `L` locking it; and a typed password remembered
/// through the offer, which `essh vault list --json` then shows without the secret.
@Suite("Interface in tmux: the vault", .serialized)
struct TUIVaultTests {
    static let passphrase = "vault pass 17"

    /// A folder with a vault (its passphrase `passphrase`) and the environment that points essh at it.
    struct VaultHome {
        let dir: TempDir
        let environment: [String: String]

        init() throws {
            dir = try TempDir()
            try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            environment = ["ESSH_DB": dir.file("essh.db"), "XDG_DATA_HOME": dir.file("data"),
                           "XDG_RUNTIME_DIR": dir.file("run"), "XDG_STATE_HOME": dir.file("state")]
            try write(TUIVaultTests.passphrase, to: "passphrase")
            let made = try essh(["vault", "init", "--work-factor", "10", "--secret-file", dir.file("passphrase")])
            guard made.status == 0 else { throw TmuxSession.Failure(description: "vault init: \(made.err)") }
        }

        func write(_ text: String, to name: String) throws {
            guard FileManager.default.createFile(atPath: dir.file(name), contents: Data(text.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw TmuxSession.Failure(description: "cannot write \(name)")
            }
        }

        func essh(_ args: [String]) throws -> RunResult { try Binary.runEssh(args, environment: environment) }

        /// The files under this home holding `secret`'s bytes (the database, its -wal and -shm, the log, the vault…),
        /// and how many files were searched. The passphrase file the test wrote itself is not searched.
        func filesHolding(_ secret: String) -> (holding: [String], searched: Int) {
            let needle = Data(secret.utf8)
            var holding: [String] = []
            var searched = 0
            let enumerator = FileManager.default.enumerator(atPath: dir.path)
            while let relative = enumerator?.nextObject() as? String {
                let path = dir.file(relative)
                var info = stat()
                guard relative != "passphrase", lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                      let data = FileManager.default.contents(atPath: path) else { continue }
                searched += 1
                if data.range(of: needle) != nil { holding.append(relative) }
            }
            return (holding, searched)
        }

        /// `essh ARGS` with the vault unlocked by `vault.passphrase_command` for that one command.
        func unlocked(_ args: [String]) throws -> RunResult {
            _ = try essh(["config", "set", "vault.passphrase_command", "cat " + dir.file("passphrase")])
            defer { _ = try? essh(["config", "unset", "vault.passphrase_command"]) }
            return try essh(args)
        }

        /// Saves the test sshd as `name` (at `host`, else the harness's), logging in with a password from
        /// `credential`.
        func saveServer(_ name: String, _ servers: TestServers, credential: String, host: String? = nil) throws {
            let add = try essh(["servers", "add", name, "--host", host ?? servers.host, "--port", "\(servers.port)",
                                "--user", servers.user, "--auth", "password", "--credential", credential])
            guard add.status == 0 else { throw TmuxSession.Failure(description: "servers add: \(add.err)") }
        }

        /// Saves `name` with the vault as its source and stores the test sshd's password for it.
        func saveVaultServer(_ name: String, _ servers: TestServers, host: String? = nil) throws {
            try saveServer(name, servers, credential: "vault", host: host)
            try write(servers.password, to: "secret")
            defer { try? FileManager.default.removeItem(atPath: dir.file("secret")) }
            let set = try unlocked(["vault", "set", name, "--secret-file", dir.file("secret")])
            guard set.status == 0 else { throw TmuxSession.Failure(description: "vault set: \(set.err)") }
        }

        /// essh in tmux on this folder's database, vault and runtime folder.
        func start() throws -> EsshInTmux {
            try EsshInTmux(environment: environment, in: dir, width: 110, height: 30)
        }
    }

    /// The essh process in the pane (the pane's own process, or its child).
    static func esshPid(_ tmux: TmuxSession) throws -> Int32 {
        let pane = try #require(Int32(try tmux.display("#{pane_pid}")))
        var candidates = [pane]
        if let children = try? String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8) {
            candidates += children.split(separator: " ").compactMap { Int32($0) }
        }
        for pid in candidates {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if comm.hasPrefix("essh") { return pid }
        }
        throw TmuxSession.Failure(description: "no essh process under the pane \(pane)")
    }

    static func coreLimit(_ pid: Int32) -> String? {
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
        return line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first.map(String.init)
    }

    @Test func theVaultsPassphraseIsAskedOnceThenNotUntilLocked() throws {
        let servers = try TestServers.require()
        let home = try VaultHome()
        defer { home.dir.cleanup() }
        try home.saveServer("box", servers, credential: "vault")
        try home.write(servers.password, to: "secret")
        let set = try home.unlocked(["vault", "set", "box", "--password", "--secret-file", home.dir.file("secret")])
        #expect(set.status == 0, "\(set.err)")
        try FileManager.default.removeItem(atPath: home.dir.file("secret"))

        let essh = try home.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        // Core dumps allowed before the vault is unlocked, so the change is the interface's own.
        let pid = try Self.esshPid(tmux)
        _ = try Binary.run("/usr/bin/prlimit", ["--pid", "\(pid)", "--core=unlimited:unlimited"])
        #expect(Self.coreLimit(pid) == "unlimited")

        try tmux.press("Enter")
        try tmux.waitFor(text: "Vault passphrase:")
        try tmux.type(Self.passphrase)
        try tmux.press("Enter")
        let header = try tmux.waitFor(text: "password (vault)")
        #expect(!header.contains { $0.contains("Password for") })
        #expect(Self.coreLimit(pid) == "0", "no core dumps once the key is in memory")
        try essh.endSession()
        try tmux.press("Enter")
        try tmux.waitFor(text: "vault unlocked")

        // Unlocked: the next connection asks nothing.
        try tmux.press("Enter")
        var asked = false
        try tmux.waitFor("the session, logged in by the vault") { screen in
            asked = asked || screen.contains { $0.contains("Vault passphrase:") || $0.contains("Password for") }
            return screen.contains { $0.contains("password (vault)") }
        }
        #expect(!asked, "no question on the second connection")
        try essh.endSession()
        try tmux.press("Enter")
        try tmux.waitFor(text: "vault unlocked")

        // L locks it: the next connection asks again.
        try tmux.press("L")
        try tmux.waitFor(text: "vault locked")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Vault passphrase:")
        try tmux.type(Self.passphrase)
        try tmux.press("Enter")
        try tmux.waitFor(text: "password (vault)")
        try essh.endSession()
        try tmux.press("Enter")
        try essh.quit()
        let log = (try? String(contentsOfFile: home.dir.file("state/essh/essh.log"), encoding: .utf8)) ?? ""
        #expect(!log.contains(servers.password) && !log.contains(Self.passphrase))
        let found = home.filesHolding(servers.password)
        #expect(found.searched >= 3 && found.holding.isEmpty, "\(found)")
        #expect(home.filesHolding(Self.passphrase).holding.isEmpty)
    }

    @Test func aTypedPasswordIsRememberedThroughTheOffer() throws {
        let servers = try TestServers.require()
        let home = try VaultHome()
        defer { home.dir.cleanup() }
        try home.saveServer("typed", servers, credential: "ask")

        let essh = try home.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "typed")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Remember this password in the vault?")
        // The interface's own argv and environment never held it (nothing eSSH starts gets it either).
        let pid = try Self.esshPid(tmux)
        for part in ["cmdline", "environ"] {
            let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/\(part)") ?? Data()
            #expect(!bytes.isEmpty && bytes.range(of: Data(servers.password.utf8)) == nil, "/proc/PID/\(part)")
        }
        try tmux.press("y")
        try tmux.waitFor(text: "Vault passphrase:")
        try tmux.type(Self.passphrase)
        try tmux.press("Enter")
        try tmux.waitFor(text: "is in the vault now")
        try essh.endSession()
        try tmux.press("Enter")
        try essh.quit()

        let list = try home.unlocked(["vault", "list", "--json"])
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.contains("\"typed\""), "\(list.out)")
        #expect(list.out.contains("password"))
        #expect(!list.out.contains(servers.password), "names and kinds, never the secret")
        // After a session with a typed password that went into the vault: not in the database, its WAL, the log,
        // the vault's bytes, nor any other file eSSH wrote.
        let found = home.filesHolding(servers.password)
        #expect(found.searched >= 3 && found.holding.isEmpty, "\(found)")
        #expect(home.filesHolding(Self.passphrase).holding.isEmpty)
    }
    /// With `essh vault unlock`'s agent running, the interface takes its key: unlocked from the start, nothing asked.
    @Test func theUnlockAgentsKeyIsUsedWithoutAsking() throws {
        let servers = try TestServers.require()
        let home = try VaultHome()
        defer { home.dir.cleanup() }
        try home.saveServer("box", servers, credential: "vault")
        try home.write(servers.password, to: "secret")
        #expect(try home.unlocked(["vault", "set", "box", "--secret-file", home.dir.file("secret")]).status == 0)
        let unlock = try home.unlocked(["vault", "unlock", "--for", "120"])
        #expect(unlock.status == 0, "\(unlock.err)")
        defer { _ = try? home.essh(["vault", "lock"]) }

        let essh = try home.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "vault unlocked")
        try tmux.press("Enter")
        var asked = false
        try tmux.waitFor("the session, logged in by the agent's key") { screen in
            asked = asked || screen.contains { $0.contains("Vault passphrase:") || $0.contains("Password for") }
            return screen.contains { $0.contains("password (vault)") }
        }
        #expect(!asked)
        try essh.endSession()
        try tmux.press("Enter")
        try essh.quit()
    }
    /// The Files screen's own login to a vault server takes the vault's password (the passphrase asked once).
    @Test func theFilesScreenLogsInToAVaultServerFromTheVault() throws {
        let servers = try TestServers.require()
        let home = try VaultHome()
        defer { home.dir.cleanup() }
        try home.saveVaultServer("box", servers)
        let essh = try home.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("f")
        try tmux.waitFor(text: "Vault passphrase:")
        try tmux.type(Self.passphrase)
        try tmux.press("Enter")
        var asked = false
        try tmux.waitFor("the Files screen on box") { screen in
            asked = asked || screen.contains { $0.contains("Password for") }
            return screen.contains { $0.contains("box: \(servers.home)") }
        }
        #expect(!asked, "the server's password came from the vault")
    }

    /// A fleet run over two vault servers: no shared password asked, the vault passphrase once, both log in.
    @Test func aFleetRunGivesEachVaultServerItsOwnPasswordAfterOnePassphrase() throws {
        let servers = try TestServers.require()
        let home = try VaultHome()
        defer { home.dir.cleanup() }
        try home.saveVaultServer("pw1", servers, host: "127.0.0.2")
        try home.saveVaultServer("pw2", servers, host: "127.0.0.3")
        let essh = try home.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "pw2")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 2 servers")
        try tmux.type("id -un")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Vault passphrase:")
        #expect(try !tmux.screen().contains { $0.contains("Password for the") }, "no shared password for them")
        try tmux.type(Self.passphrase)
        try tmux.press("Enter")
        try tmux.waitFor(text: "2 servers: 2 ok in ")
        try tmux.press("Escape")
        try essh.quit()
    }
}
