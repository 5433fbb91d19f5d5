import Foundation
import Synchronization
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

    /// OpenSSH 9.2 refuses ssh-rsa (SHA-1) signatures by default, so an RSA login proves rsa-sha2-256/512.
    @Test func rsaKeyLogsInWithAnRSASHA2Signature() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s)
        defer { sshd.stop() }
        var o = options(s, key: "id_rsa")
        o.port = sshd.port
        o.hostKeyPolicy = .acceptNew
        let dir = try TempDir()
        defer { dir.cleanup() }
        o.knownHostsFile = dir.file("known_hosts")
        let session = try connect(s, o)
        #expect(session.authenticatedWith.contains("id_rsa"))
        let r = try session.capture("id -un")
        #expect(String(decoding: r.stdout, as: UTF8.self) == s.user + "\n")
        // sshd (LogLevel DEBUG1) names the signature algorithm it accepted.
        let accepted = sshd.log.split(separator: "\n").filter { $0.contains("pkalg rsa-sha2-") || $0.contains("Accepted publickey") }
        #expect(accepted.contains { $0.contains("rsa-sha2-512") || $0.contains("rsa-sha2-256") }, "\(accepted)")
        #expect(!sshd.log.contains("pkalg ssh-rsa "))
    }

    @Test func passphraseProtectedRSAKeyLogsIn() throws {
        let s = try TestServers.require()
        let prompter = ScriptedPrompter(passphrase: s.passphrase)
        var o = options(s, key: "id_rsa_pass")
        o.allowPassword = false
        let session = try connect(s, o, prompter: prompter)
        #expect(session.authenticatedWith.contains("id_rsa_pass"))
        #expect(prompter.questions == ["passphrase"])
    }

    @Test func wrongPassphraseForAnRSAKeyIsRefusedWithAReason() throws {
        let s = try TestServers.require()
        var o = options(s, key: "id_rsa_pass")
        o.allowPassword = false
        let e = sshError { _ = try connect(s, o, prompter: ScriptedPrompter(passphrase: "not-it")) }
        #expect(e?.kind == .authenticationFailed)
        #expect(e?.message.contains("wrong passphrase") == true)
    }

    @Test func theServersBannerIsReportedBeforeLogin() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        chmod(dir.path, 0o755)
        let bannerFile = dir.file("banner")
        // An escape sequence too: the SSH module passes the text on as sent; front ends sanitise it.
        try "Authorised use only.\nSecond line \u{1B}[31mred\n".write(toFile: bannerFile, atomically: true, encoding: .utf8)
        chmod(bannerFile, 0o644)
        let sshd = try ExtraSSHD(servers: s, extra: ["Banner \"\(bannerFile)\""])
        defer { sshd.stop() }
        var o = options(s)
        o.port = sshd.port
        o.hostKeyPolicy = .acceptNew
        o.knownHostsFile = dir.file("known_hosts")
        let stages = StageLog()
        let session = try SSHSession.connect(o, prompter: NonInteractivePrompter()) { stages.append($0) }
        let banners = stages.all.compactMap { stage -> String? in
            if case .banner(let text) = stage { return text }
            return nil
        }
        #expect(banners == ["Authorised use only.\nSecond line \u{1B}[31mred\n"])
        #expect(session.loginBanner == banners.first)
        // The banner comes before authentication starts (a person reads it before typing a password).
        let bannerIndex = stages.all.firstIndex { if case .banner = $0 { true } else { false } }
        let authIndex = stages.all.firstIndex { if case .authenticating = $0 { true } else { false } }
        #expect(bannerIndex != nil && authIndex != nil && bannerIndex! < authIndex!)
    }

    @Test func noBannerNoStage() throws {
        let s = try TestServers.require()
        let stages = StageLog()
        let session = try SSHSession.connect(options(s), prompter: NonInteractivePrompter()) { stages.append($0) }
        #expect(session.loginBanner == nil)
        #expect(!stages.all.contains { if case .banner = $0 { true } else { false } })
    }

    @Test(.serialized, arguments: ["id_ed25519", "id_rsa"])
    func agentKeysLogIn(key: String) throws {
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
        let add = try Binary.run("/usr/bin/ssh-add", [s.key(key)], environment: ["SSH_AUTH_SOCK": sock])
        #expect(add.status == 0)
        // The agent is found through SSH_AUTH_SOCK, as OpenSSH finds it.
        setenv("SSH_AUTH_SOCK", sock, 1)
        defer { unsetenv("SSH_AUTH_SOCK") }
        var o = options(s, key: nil)
        o.useAgent = true
        o.allowPassword = false
        let session = try connect(s, o)
        #expect(session.authenticatedWith.hasPrefix("publickey (agent"))
        #expect(session.authenticatedWith.contains("essh-" + key.dropFirst(3)), "the agent's key comment")
    }
}

/// Connection stages as reported, from the connecting thread.
final class StageLog: Sendable {
    private let stages = Mutex<[ConnectStage]>([])
    func append(_ stage: ConnectStage) { stages.withLock { $0.append(stage) } }
    var all: [ConnectStage] { stages.withLock { $0 } }
}
