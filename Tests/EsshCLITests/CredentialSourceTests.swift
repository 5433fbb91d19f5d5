import Foundation
import Operations
import SSH
import Synchronization
import Testing
import TestSupport

/// Per-server credential sources against the real sshd (issue 17 §2): a command's output logs in, a rejected stored
/// password is asked once, a failing command is said, and a fleet gives each server its own secret.
@Suite struct CredentialSourceTests {
    private func essh(_ dir: TempDir, _ args: [String], timeout: TimeInterval = 30) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: timeout)
    }

    /// A 0600 file holding `text` and a newline, as `pass` would print it.
    private func secretFile(_ dir: TempDir, _ name: String, _ text: String) -> String {
        let path = dir.file(name)
        FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        return path
    }

    private func addPasswordServer(_ s: TestServers, _ dir: TempDir, _ name: String, host: String = "127.0.0.1",
                                   credential: String) throws {
        let r = try essh(dir, ["servers", "add", name, "--host", host, "--port", String(s.port), "--user", s.user,
                               "--auth", "password", "--credential", credential])
        #expect(r.status == 0, "\(r.err)")
    }

    @Test func aCommandsOutputLogsIn() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let file = secretFile(dir, "db1.pw", s.password)
        try addPasswordServer(s, dir, "db1", credential: "command:/bin/cat \(file)")
        let shown = try essh(dir, ["servers", "show", "db1"])
        #expect(shown.out.contains("credential      command:/bin/cat \(file)"), "\(shown.out)")
        let r = try essh(dir, ["exec", "db1", "--known-hosts", s.knownHosts, "--", "id -un"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == s.user + "\n")
        #expect(!r.err.contains(s.password) && !r.out.contains(s.password))
    }

    @Test func aCommandsOutputUnlocksTheServersKey() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let file = secretFile(dir, "key.pp", s.passphrase)
        let add = try essh(dir, ["servers", "add", "kp", "--host", s.host, "--port", String(s.port), "--user", s.user,
                                 "--key", s.key("id_ed25519_pass"), "--credential", "command:/bin/cat \(file)"])
        #expect(add.status == 0, "\(add.err)")
        let r = try essh(dir, ["exec", "kp", "--known-hosts", s.knownHosts, "-v", "--", "id -un"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == s.user + "\n")
        #expect(r.err.contains("id_ed25519_pass"), "logged in with the key: \(r.err)")
        #expect(!r.err.contains(s.passphrase))
    }

    @Test func aFailingCommandIsSaidAndNothingElseIsTried() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try addPasswordServer(s, dir, "db1", credential: "command:/bin/false")
        let r = try essh(dir, ["exec", "db1", "--known-hosts", s.knownHosts, "--", "id -un"])
        #expect(r.status == 255)
        #expect(r.err.contains("The credential command failed: /bin/false exited with status 1 and gave no secret."),
                "\(r.err)")
        #expect(r.err.contains("Permission denied"))
    }

    @Test func theOptionIsCheckedBeforeAnythingIsSaved() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        for (bad, said) in [("keyring", "is no credential source"), ("command:", "The credential command is empty"),
                            ("command:no-such-essh-program x", "'no-such-essh-program' is not on PATH")] {
            let r = try essh(dir, ["servers", "add", "x", "--host", "h", "--credential", bad])
            #expect(r.status == 2, "\(bad)")
            #expect(r.err.contains("--credential: ") && r.err.contains(said), "\(r.err)")
        }
        try addPasswordServer(s, dir, "db1", credential: "vault")
        let edited = try essh(dir, ["servers", "edit", "db1", "--credential", "command:cat '/run/a b'"])
        #expect(edited.status == 0, "\(edited.err)")
        let json = try essh(dir, ["servers", "show", "db1", "--json"])
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let server = (object?["servers"] as? [[String: Any]])?.first ?? object ?? [:]
        #expect(server["credential"] as? String == "command:cat '/run/a b'", "\(json.out)")
        #expect(UUID(uuidString: server["uid"] as? String ?? "") != nil)
    }

    @Test func aVaultSourceWithoutAVaultSaysHowToMakeOne() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try addPasswordServer(s, dir, "db1", credential: "vault")
        let r = try essh(dir, ["exec", "db1", "--known-hosts", s.knownHosts, "--", "id -un"])
        #expect(r.status == 255)
        #expect(r.err.contains("The vault could not be opened: There is no vault at \(dir.path)/.local/share/essh/"
                               + "vault.age. `essh vault init` makes one."), "\(r.err)")
    }

    /// The prompter itself, on a real login: a command printing a wrong password is refused by sshd, the person is
    /// asked once, the flag is set, and what they typed is offered once.
    @Test func aRejectedStoredPasswordIsAskedOnceAndFlagged() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let wrong = secretFile(dir, "wrong.pw", "not-the-password")
        for port in [s.port, s.kbdPort] {
            let person = Person(typed: s.password)
            let notices = Mutex<[String]>([])
            var options = ConnectOptions(host: s.host, port: port, user: s.user, knownHostsFile: s.knownHosts)
            options.globalKnownHostsFiles = []
            options.useAgent = false
            options.connectTimeout = 5
            let prompter = CredentialPrompter(wrapping: person, uid: "u1", host: s.host, provider:
                                                CommandSecretProvider(line: "/bin/cat \(wrong)"),
                                              notice: { text in notices.withLock { $0.append(text) } })
            let session = try SSHSession.connect(options, prompter: prompter)
            defer { session.disconnect() }
            #expect(person.asked.withLock { $0 } == 1, "port \(port)")
            #expect(prompter.storedSecretRejected)
            #expect(prompter.takeTypedPassword() == s.password)
            #expect(prompter.takeTypedPassword() == nil)
            #expect(notices.withLock { $0.count } == 1)
        }
    }

    /// Three password servers, each with its own command; one command fails: two log in, the third is reported
    /// without a password and never tried with another's.
    @Test func aFleetGivesEachServerItsOwnSecret() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try addPasswordServer(s, dir, "pw1", host: "127.0.0.1",
                              credential: "command:/bin/cat \(secretFile(dir, "pw1", s.password))")
        try addPasswordServer(s, dir, "pw2", host: "127.0.0.2",
                              credential: "command:/bin/cat \(secretFile(dir, "pw2", s.password))")
        try addPasswordServer(s, dir, "pw3", host: "127.0.0.3", credential: "command:/bin/false")
        let r = try essh(dir, ["exec", "--all", "--json", "--known-hosts", s.knownHosts, "--", "id -un"])
        #expect(r.status == 1, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let list = object?["results"] as? [[String: Any]] ?? []
        let byName = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["pw1"]?["status"] as? String == "ok")
        #expect(byName["pw2"]?["status"] as? String == "ok")
        #expect(byName["pw3"]?["status"] as? String == "auth-failed")
        #expect(byName["pw3"]?["error"] as? String == "No password for this server: The credential command failed: "
                + "/bin/false exited with status 1 and gave no secret.", "\(byName["pw3"] ?? [:])")
        #expect(!r.out.contains(s.password) && !r.err.contains(s.password))
    }
}

/// The person at the terminal, played: types `typed` and counts the times they were asked.
final class Person: Prompter {
    let typed: String
    let asked = Mutex(0)
    init(typed: String) { self.typed = typed }
    func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision { .reject }
    func password(user: String, host: String, attempt: Int) -> String? {
        asked.withLock { $0 += 1 }
        return typed
    }
    func passphrase(keyFile: String, attempt: Int) -> String? { nil }
    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]? {
        asked.withLock { $0 += 1 }
        return prompts.map { _ in typed }
    }
}

/// The command line on a terminal: a stored password the server refuses is asked for once, and said.
@Suite struct CredentialSourceTerminalTests {
    @Test func aRefusedStoredPasswordIsAskedOnceOnTheTerminal() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let wrong = dir.file("wrong.pw")
        FileManager.default.createFile(atPath: wrong, contents: Data("not-the-password\n".utf8),
                                       attributes: [.posixPermissions: 0o600])
        let add = try Binary.runEssh(["servers", "add", "db1", "--host", s.host, "--port", String(s.port), "--user",
                                      s.user, "--auth", "password", "--credential", "command:/bin/cat \(wrong)"],
                                     environment: ["ESSH_DB": dir.file("essh.db")])
        #expect(add.status == 0, "\(add.err)")
        let essh = try EsshInTmux(arguments: "exec db1 -- echo logged-in-as-\\$USER", in: dir)
        defer { essh.stop() }
        try essh.tmux.waitFor(text: "password:")
        let asked = try essh.tmux.screen().joined(separator: "\n")
        #expect(asked.contains("The server refused the stored password; type it (asked once)."), "\(asked)")
        try essh.tmux.type(s.password)
        try essh.tmux.press("Enter")
        let screen = try essh.waitForExit(0).joined(separator: "\n")
        #expect(screen.contains("logged-in-as-\(s.user)"), "\(screen)")
        #expect(screen.contains("db1 refused the password from its credential source"), "\(screen)")
        #expect(!screen.contains(s.password))
    }
}
