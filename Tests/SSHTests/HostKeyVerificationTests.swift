import Foundation
import Testing
import TestSupport
@testable import SSH

@Suite struct HostKeyVerificationTests {
    func fresh(_ s: TestServers, _ dir: TempDir, _ policy: HostKeyPolicy) -> ConnectOptions {
        var o = options(s)
        o.knownHostsFile = dir.file("known_hosts")
        o.hostKeyPolicy = policy
        return o
    }

    @Test func strictRefusesAnUnknownKeyAndShowsItsFingerprint() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let e = sshError { _ = try connect(s, fresh(s, dir, .strict)) }
        #expect(e?.kind == .hostKeyUnknown)
        #expect(e?.message.contains(s.ed25519Fingerprint) == true)
        #expect(!FileManager.default.fileExists(atPath: dir.file("known_hosts")))
    }

    @Test func acceptNewSavesTheKeyOnceThenMatchesIt() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "# my notes\n".write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        let first = try connect(s, fresh(s, dir, .acceptNew))
        #expect(first.hostKey.fingerprint == s.ed25519Fingerprint)
        let text = try String(contentsOfFile: dir.file("known_hosts"), encoding: .utf8)
        #expect(text.hasPrefix("# my notes\n|1|"), "the user's lines stay; the new one is appended, hashed")
        // OpenSSH finds what eSSH wrote.
        let found = try Binary.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(s.port)", "-f", dir.file("known_hosts")])
        #expect(found.status == 0)
        _ = try connect(s, fresh(s, dir, .strict))
        let after = try String(contentsOfFile: dir.file("known_hosts"), encoding: .utf8)
        #expect(after == text, "a known key is not written again")
    }

    @Test func askShowsTheKeyAndHonoursTheAnswer() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let no = ScriptedPrompter(hostKey: .reject)
        #expect(sshError { _ = try connect(s, fresh(s, dir, .ask), prompter: no) }?.kind == .hostKeyRejected)
        #expect(no.questions == ["hostkey \(s.ed25519Fingerprint)"])
        _ = try connect(s, fresh(s, dir, .ask), prompter: ScriptedPrompter(hostKey: .acceptOnce))
        #expect(!FileManager.default.fileExists(atPath: dir.file("known_hosts")))
        _ = try connect(s, fresh(s, dir, .ask), prompter: ScriptedPrompter(hostKey: .acceptAndSave))
        let asked = ScriptedPrompter(hostKey: .reject)
        _ = try connect(s, fresh(s, dir, .ask), prompter: asked)
        #expect(asked.questions.isEmpty, "a saved key is not asked about again")
    }

    @Test func aChangedKeyIsRefusedUnderEveryPolicyWithBothFingerprintsAndTheLine() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let other = s.otherHostKeyLine.split(separator: " ").prefix(2).joined(separator: " ")
        try "# first line\n[127.0.0.1]:\(s.port) \(other)\n".write(toFile: dir.file("known_hosts"), atomically: true,
                                                                   encoding: .utf8)
        let before = try String(contentsOfFile: dir.file("known_hosts"), encoding: .utf8)
        let otherKey = HostKey(blob: [UInt8](Data(base64Encoded: String(other.split(separator: " ")[1]))!))!
        for policy in HostKeyPolicy.allCases {
            let e = sshError { _ = try connect(s, fresh(s, dir, policy), prompter: ScriptedPrompter(hostKey: .acceptAndSave)) }
            #expect(e?.kind == .hostKeyChanged)
            #expect(e?.message.contains(s.ed25519Fingerprint) == true)
            #expect(e?.message.contains(otherKey.fingerprint) == true)
            #expect(e?.message.contains("\(dir.file("known_hosts")) line 2") == true)
        }
        #expect(try String(contentsOfFile: dir.file("known_hosts"), encoding: .utf8) == before)
    }

    @Test func aKeyOpenSSHStoredUnderEd25519IsFoundEvenWhereLibssh2PrefersEcdsa() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ed = try String(contentsOfFile: s.hostKeys + "/ssh_host_ed25519_key.pub", encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(s.port) \(ed)\n".write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        let session = try connect(s, fresh(s, dir, .strict))
        #expect(session.hostKey.type == "ssh-ed25519")
        let ec = try String(contentsOfFile: s.hostKeys + "/ssh_host_ecdsa_key.pub", encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(s.port) \(ec)\n".write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        #expect(try connect(s, fresh(s, dir, .strict)).hostKey.type == "ecdsa-sha2-nistp256")
    }

    @Test func aRevokedKeyIsRefused() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ed = try String(contentsOfFile: s.hostKeys + "/ssh_host_ed25519_key.pub", encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(s.port) \(ed)\n@revoked * \(ed)\n".write(toFile: dir.file("known_hosts"), atomically: true,
                                                                     encoding: .utf8)
        #expect(sshError { _ = try connect(s, fresh(s, dir, .acceptNew)) }?.kind == .hostKeyRevoked)
    }
}
