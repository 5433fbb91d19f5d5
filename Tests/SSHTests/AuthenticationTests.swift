import Foundation
import Testing
import TestSupport
@testable import SSH

@Suite struct AuthenticationTests {
    @Test func ed25519KeyLogsIn() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        #expect(session.authenticatedWith.contains("id_ed25519"))
        let r = try session.capture("id -un")
        #expect(String(decoding: r.stdout, as: UTF8.self) == s.user + "\n")
    }

    @Test func ecdsaKeyLogsIn() throws {
        let s = try TestServers.require()
        let session = try connect(s, options(s, key: "id_ecdsa"))
        #expect(session.authenticatedWith.contains("id_ecdsa"))
    }

    @Test func passphraseProtectedKeyAsksForThePassphrase() throws {
        let s = try TestServers.require()
        let prompter = ScriptedPrompter(passphrase: s.passphrase)
        let session = try connect(s, options(s, key: "id_ed25519_pass"), prompter: prompter)
        #expect(session.authenticatedWith.contains("id_ed25519_pass"))
        #expect(prompter.questions == ["passphrase"])
    }

    @Test func wrongPassphraseIsRefusedWithAReason() throws {
        let s = try TestServers.require()
        var o = options(s, key: "id_ed25519_pass")
        o.allowPassword = false
        let e = sshError { _ = try connect(s, o, prompter: ScriptedPrompter(passphrase: "not-it")) }
        #expect(e?.kind == .authenticationFailed)
        #expect(e?.message.contains("wrong passphrase") == true)
    }

    @Test func passwordLogsIn() throws {
        let s = try TestServers.require()
        let session = try connect(s, options(s, key: nil), prompter: NonInteractivePrompter(password: s.password))
        #expect(session.authenticatedWith == "password")
    }

    @Test func wrongPasswordSaysWhichMethodsTheServerAllows() throws {
        let s = try TestServers.require()
        let e = sshError { _ = try connect(s, options(s, key: nil), prompter: NonInteractivePrompter(password: "nope")) }
        #expect(e?.kind == .authenticationFailed)
        #expect(e?.message.contains("allows publickey, password") == true)
        #expect(e?.message.contains("password (wrong)") == true)
    }

    @Test func keyboardInteractiveLogsInThroughPAM() throws {
        let s = try TestServers.require()
        let prompter = ScriptedPrompter(password: s.password)
        let session = try connect(s, options(s, port: s.kbdPort, key: nil), prompter: prompter)
        #expect(session.authenticatedWith == "keyboard-interactive")
        #expect(prompter.questions.contains { $0.hasPrefix("kbd ") && $0.lowercased().contains("password") })
    }

    @Test func unauthorizedKeyIsRefused() throws {
        let s = try TestServers.require()
        let e = sshError { _ = try connect(s, options(s, key: "id_unauthorized")) }
        #expect(e?.kind == .authenticationFailed)
        #expect(e?.message.contains("id_unauthorized (refused by the server)") == true)
    }

    // Only a libssh2 before 1.11 (no rsa-sha2 signatures) gives this message; `make build` links 1.11.1, where the
    // old `#require` failed the test instead of leaving it out.
    @Test(.enabled(if: !SSHLibrary.supportsRSASHA2, "this libssh2 signs rsa-sha2; the RSA message does not apply"))
    func rsaKeyGetsTheLibssh2Explanation() throws {
        let s = try TestServers.require()
        let e = sshError { _ = try connect(s, options(s, key: "id_rsa")) }
        #expect(e?.kind == .authenticationFailed)
        #expect(e?.message.contains("ed25519 or ecdsa") == true)
        #expect(e?.message.contains(SSHLibrary.version) == true)
    }

    @Test func agentKeysLogIn() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let sock = dir.file("agent.sock")
        // The agent runs in the foreground (-D) under this test's control and is stopped at the end.
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
        agent.arguments = ["-D", "-a", sock]
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        // SIGKILL: children of the test runner inherit its blocked signal mask, so SIGTERM would never arrive.
        defer { kill(agent.processIdentifier, SIGKILL); agent.waitUntilExit() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: sock) { usleep(20_000) }
        let add = try Binary.run("/usr/bin/ssh-add", [s.key("id_ed25519")], environment: ["SSH_AUTH_SOCK": sock])
        #expect(add.status == 0)
        // The agent is found through SSH_AUTH_SOCK, as OpenSSH finds it.
        setenv("SSH_AUTH_SOCK", sock, 1)
        defer { unsetenv("SSH_AUTH_SOCK") }
        var o = options(s, key: nil)
        o.useAgent = true
        o.allowPassword = false
        let session = try connect(s, o)
        #expect(session.authenticatedWith.hasPrefix("publickey (agent"))
    }
}
