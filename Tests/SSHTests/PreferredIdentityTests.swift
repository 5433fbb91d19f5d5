import Foundation
import Testing
import TestSupport
@testable import SSH

/// An agent holding four keys of which only the last is authorized, on a server with `MaxAuthTries 2`: offering them
/// in the agent's order is disconnected after two; offering the remembered one first logs in at once.
@Suite(.serialized) struct PreferredIdentityTests {
    /// Four fresh ed25519 keys (comments `agent-key-1` … `-4`) in a private ssh-agent, and an sshd that authorizes
    /// only the fourth.
    final class Fixture {
        let s: TestServers
        let dir: TempDir
        let home: TestUserFolder
        let agent: KeyedAgent
        var sock: String { agent.socket }
        let sshd: ExtraSSHD
        var keys: [String] { agent.keys }

        init(maxAuthTries: Int = 2) throws {
            s = try TestServers.require()
            let dir = try TempDir()
            self.dir = dir
            home = try TestUserFolder(servers: s)
            agent = try KeyedAgent(in: dir)
            try home.write(try agent.publicKey(4), to: "authorized_keys", servers: s)
            sshd = try ExtraSSHD(servers: s, authorizedKeys: home.file("authorized_keys"),
                                 maxAuthTries: maxAuthTries)
        }

        func options() -> ConnectOptions {
            var o = SSHTests.options(s, port: sshd.port, key: nil)
            o.host = sshd.host
            o.hostKeyPolicy = .acceptNew
            o.knownHostsFile = dir.file("known_hosts")
            o.useAgent = true
            o.agentSocket = sock
            o.allowPassword = false
            o.allowKeyboardInteractive = false
            o.connectTimeout = 30
            return o
        }

        /// `ssh-keygen -lf`'s fingerprint of key `n` (1…4).
        func fingerprint(_ n: Int) throws -> String {
            let listed = try Binary.run("/usr/bin/ssh-keygen", ["-lf", keys[n - 1] + ".pub"])
            return String(listed.out.split(separator: " ")[1])
        }

        deinit {
            sshd.stop()
            agent.stop()
            home.cleanup()
            dir.cleanup()
        }
    }

    @Test func manyAgentKeysAreDisconnectedWithoutAPreference() throws {
        let f = try Fixture()
        let e = sshError { _ = try SSHSession.connect(f.options(), prompter: NonInteractivePrompter()) }
        #expect(e != nil)
        // sshd's child writes the line as it disconnects, maybe after the client saw the connection close.
        for _ in 0..<100 where !f.sshd.log.contains("Too many authentication failures") { usleep(50_000) }
        #expect(f.sshd.log.contains("Too many authentication failures"), "\(e?.message ?? "") sshd: \(f.sshd.log)")
    }

    @Test func thePreferredAgentKeyIsOfferedFirstAndReported() throws {
        let f = try Fixture()
        var o = f.options()
        let fingerprint = try f.fingerprint(4)
        o.preferredIdentity = .agentKey(fingerprint: fingerprint)
        let session = try SSHSession.connect(o, prompter: NonInteractivePrompter())
        defer { session.disconnect() }
        #expect(session.loginIdentity == .agentKey(comment: "agent-key-4", fingerprint: fingerprint))
        #expect(session.loginIdentity.preferred == .agentKey(fingerprint: fingerprint))
        #expect(session.loginMethod == .agent(comment: "agent-key-4"))
        #expect(!f.sshd.log.contains("Failed publickey"), "no other key was offered before it")
    }

    @Test func thePreferredKeyFileIsTriedBeforeTheAgent() throws {
        let f = try Fixture()
        var o = f.options()
        o.preferredIdentity = .keyFile(path: f.keys[3])
        let session = try SSHSession.connect(o, prompter: NonInteractivePrompter())
        defer { session.disconnect() }
        #expect(session.loginIdentity == .keyFile(path: f.keys[3], fingerprint: try f.fingerprint(4)))
        #expect(session.loginIdentity.preferred == .keyFile(path: f.keys[3]))
    }

    @Test func aPreferredKeyTheAgentLacksCostsNothingAndTheOthersFollow() throws {
        let f = try Fixture(maxAuthTries: 6)
        var o = f.options()
        o.preferredIdentity = .agentKey(fingerprint: "SHA256:notAKeyOfThisAgentxxxxxxxxxxxxxxxxxxxxxxxx")
        let session = try SSHSession.connect(o, prompter: NonInteractivePrompter())
        defer { session.disconnect() }
        #expect(session.loginIdentity == .agentKey(comment: "agent-key-4", fingerprint: try f.fingerprint(4)))
    }

    @Test func aKeyFileLoginReportsTheFingerprintSSHKeygenPrints() throws {
        let s = try TestServers.require()
        for key in ["id_ed25519", "id_ecdsa", "id_rsa"] {
            let sshd = key == "id_rsa" ? try ExtraSSHD(servers: s) : nil
            defer { sshd?.stop() }
            var o = options(s, key: key)
            let dir = try TempDir()
            defer { dir.cleanup() }
            if let sshd {
                o.port = sshd.port
                o.hostKeyPolicy = .acceptNew
                o.knownHostsFile = dir.file("known_hosts")
            }
            let session = try connect(s, o)
            defer { session.disconnect() }
            let listed = try Binary.run("/usr/bin/ssh-keygen", ["-lf", s.key(key)])
            let fingerprint = String(listed.out.split(separator: " ")[1])
            #expect(session.loginIdentity == .keyFile(path: s.key(key), fingerprint: fingerprint))
            #expect(session.loginIdentity.description == "key \(s.key(key)) (\(fingerprint))")
        }
    }

    @Test func passwordLoginsReportThePassword() throws {
        let s = try TestServers.require()
        let session = try connect(s, options(s, key: nil), prompter: NonInteractivePrompter(password: s.password))
        defer { session.disconnect() }
        #expect(session.loginIdentity == .password)
        #expect(session.loginIdentity.fingerprint == nil && session.loginIdentity.preferred == nil)
    }

    @Test func preferredIdentitiesReadBackWhatTheyStore() {
        for p: PreferredIdentity in [.keyFile(path: "/home/me/.ssh/id ed25519"), .agentKey(fingerprint: "SHA256:abc")] {
            #expect(PreferredIdentity(storedText: p.storedText) == p)
        }
        #expect(PreferredIdentity(storedText: "file:") == nil)
        #expect(PreferredIdentity(storedText: "agent:md5:aa") == nil)
        #expect(PreferredIdentity(storedText: "/home/me/.ssh/id_rsa") == nil)
    }
}
