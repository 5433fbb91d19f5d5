import Foundation
import Testing
import TestSupport
@testable import SSH

/// A team's pinned host keys (`ConnectOptions.pinnedHostKeys`) against the harness's real sshd, whose host keys are
/// ed25519, ecdsa-sha2-nistp256 and RSA.
@Suite struct PinnedHostKeyTests {
    static let pinnedAt = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06 UTC

    /// A host key of the harness from its `.pub` file (`ed25519`, `ecdsa`, `rsa`, or `other_ed25519` which no server
    /// uses).
    func hostKey(_ s: TestServers, _ name: String) throws -> HostKey {
        try hostKey(in: s.hostKeys, name.hasPrefix("other") ? "\(name)_key.pub" : "ssh_host_\(name)_key.pub")
    }

    func hostKey(in folder: String, _ file: String) throws -> HostKey {
        let fields = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: " ")
        let blob = try #require(Data(base64Encoded: String(fields[1])))
        return try #require(HostKey(blob: [UInt8](blob)))
    }

    func pin(_ s: TestServers, _ name: String, by: String = "ana") throws -> PinnedHostKey {
        PinnedHostKey(try hostKey(s, name), pinnedBy: by, pinnedAt: Self.pinnedAt)
    }

    func pinned(_ s: TestServers, _ dir: TempDir, _ pins: [PinnedHostKey], policy: HostKeyPolicy = .strict,
                port: Int? = nil) -> ConnectOptions {
        var o = options(s, port: port)
        o.knownHostsFile = dir.file("known_hosts")
        o.hostKeyPolicy = policy
        o.pinnedHostKeys = pins
        return o
    }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test func aPinEqualToTheServersKeyConnectsUnderEveryPolicyAskingNothingAndWritingNothing() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "".write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        for policy in HostKeyPolicy.allCases {
            let prompter = ScriptedPrompter(hostKey: .acceptAndSave)
            let session = try connect(s, pinned(s, dir, [try pin(s, "ed25519")], policy: policy), prompter: prompter)
            #expect(session.hostKey == (try hostKey(s, "ed25519")))
            #expect(prompter.questions.isEmpty, "a pinned key is not asked about (\(policy))")
            #expect(text(dir.file("known_hosts")) == "", "nothing is written to known_hosts (\(policy))")
        }
    }

    @Test func anotherKeyOfThePinnedTypeIsRefusedNamingThePinWhoSetItAndWhen() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let other = try pin(s, "other_ed25519", by: "ana")
        // known_hosts trusting the server's real key does not overrule the team's pin.
        let real = try hostKey(s, "ed25519")
        try "[127.0.0.1]:\(s.port) \(real.openSSHText)\n".write(toFile: dir.file("known_hosts"), atomically: true,
                                                                encoding: .utf8)
        let before = text(dir.file("known_hosts"))
        for policy in HostKeyPolicy.allCases {
            let prompter = ScriptedPrompter(hostKey: .acceptAndSave)
            let e = sshError { _ = try connect(s, pinned(s, dir, [other], policy: policy), prompter: prompter) }
            #expect(e?.kind == .hostKeyChanged, "\(policy)")
            let message = e?.message ?? ""
            #expect(message.contains("[127.0.0.1]:\(s.port)"))
            #expect(message.contains("The server now sends: ssh-ed25519 \(s.ed25519Fingerprint)"))
            #expect(message.contains("ssh-ed25519 \(other.fingerprint) pinned by ana on 2026-11-18 11:06 UTC"))
            #expect(message.contains("essh team pin"))
            #expect(prompter.questions.isEmpty)
        }
        #expect(text(dir.file("known_hosts")) == before)
    }

    @Test func thePinnedTypeIsNegotiatedAheadOfTheDefaultAndOfKnownHostsTypes() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        // Without pins the server presents ed25519 (the first of the defaults); a pin of another type must change it.
        var plain = options(s)
        plain.knownHostsFile = dir.file("unpinned_known_hosts")
        plain.hostKeyPolicy = .acceptNew
        #expect(try connect(s, plain).hostKey.type == "ssh-ed25519")
        // known_hosts holding the ed25519 key would bring ed25519 forward; with pins it decides nothing.
        let ed = try hostKey(s, "ed25519")
        try "[127.0.0.1]:\(s.port) \(ed.openSSHText)\n".write(toFile: dir.file("known_hosts"), atomically: true,
                                                              encoding: .utf8)
        for name in ["ecdsa", "rsa"] {
            let session = try connect(s, pinned(s, dir, [try pin(s, name)]))
            #expect(session.hostKey == (try hostKey(s, name)), "pinned \(name)")
        }
        // Two pins of types the server both holds: either is accepted (the algorithm list's order picks one).
        let both = try connect(s, pinned(s, dir, [try pin(s, "rsa"), try pin(s, "ecdsa")]))
        #expect([try hostKey(s, "rsa"), try hostKey(s, "ecdsa")].contains(both.hostKey))
    }

    @Test func aServerThatCannotPresentAPinnedTypeIsRefused() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let sshd = try ExtraSSHD(servers: s, hostKeys: ["ed25519"])
        defer { sshd.stop() }
        try (sshd.knownHostsLine(servers: s, keyType: "ed25519") + "\n")
            .write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        let ecdsa = try pin(s, "ecdsa", by: "bob")
        let e = sshError { _ = try connect(s, pinned(s, dir, [ecdsa], port: sshd.port)) }
        #expect(e?.kind == .hostKeyChanged)
        let message = e?.message ?? ""
        #expect(message.contains("not of a type your team pinned"))
        #expect(message.contains("The server now sends: ssh-ed25519 \(s.ed25519Fingerprint)"))
        #expect(message.contains("ecdsa-sha2-nistp256 \(ecdsa.fingerprint) pinned by bob"))
        // The same server, its own key pinned: connects (so the refusal above is the pin's doing).
        #expect(try connect(s, pinned(s, dir, [try pin(s, "ed25519")], port: sshd.port)).hostKey.type == "ssh-ed25519")
    }

    @Test func aKeyRevokedInKnownHostsStaysRefusedThoughPinned() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ed = try hostKey(s, "ed25519")
        try "@revoked * \(ed.openSSHText)\n".write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        let e = sshError { _ = try connect(s, pinned(s, dir, [try pin(s, "ed25519")], policy: .acceptNew)) }
        #expect(e?.kind == .hostKeyRevoked)
    }

    @Test func pinsBelongToTheirHopOnly() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        // t1 through the bastion b1, with an empty known_hosts: each hop trusts only its own pins.
        func key(_ server: TestServers.NamespaceServer) throws -> PinnedHostKey {
            PinnedHostKey(try hostKey(in: server.hostKeys, "ssh_host_ed25519_key.pub"), pinnedBy: "ana",
                          pinnedAt: Self.pinnedAt)
        }
        var o = t1ViaBastion(s)
        o.knownHostsFile = dir.file("known_hosts")
        o.jumps[0].knownHostsFile = dir.file("known_hosts")
        o.pinnedHostKeys = [try key(s.jump.t1)]
        o.jumps[0].pinnedHostKeys = [try key(s.jump.b1)]
        let session = try connect(s, o)
        #expect(session.hostKey.fingerprint == s.jump.t1.fingerprint)
        #expect(!FileManager.default.fileExists(atPath: dir.file("known_hosts")))
        session.disconnect()
        // The destination's pin given to the bastion: the bastion is refused, named as the hop.
        o.jumps[0].pinnedHostKeys = [try key(s.jump.t1)]
        let e = sshError { _ = try connect(s, o) }
        #expect(e?.kind == .hostKeyChanged)
        #expect(e?.message.contains(s.jump.b1.fingerprint) == true)
        #expect(e?.message.contains("bastion") == true)
    }

    @Test func aPinMatchesOnlyItsOwnTypeAndBlob() {
        let blob: [UInt8] = [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + Array(repeating: 7, count: 32)
        let key = HostKey(type: "ssh-ed25519", blob: blob)
        let pin = PinnedHostKey(key, pinnedBy: "ana", pinnedAt: Self.pinnedAt)
        #expect(pin.matches(key))
        #expect(pin.fingerprint == key.fingerprint)
        var otherBlob = blob
        otherBlob[otherBlob.count - 1] = 8
        #expect(!pin.matches(HostKey(type: "ssh-ed25519", blob: otherBlob)))
        var wrongType = pin
        wrongType.type = "ecdsa-sha2-nistp256"
        #expect(!wrongType.matches(key))
        var unreadable = pin
        unreadable.key = "not base64!"
        #expect(!unreadable.matches(key))
        #expect(PinnedHostKey.refusal(of: key, pins: [pin], host: "web1", port: 22, serverName: "web") == nil)
        let refusal = PinnedHostKey.refusal(of: HostKey(type: "ssh-ed25519", blob: otherBlob), pins: [pin],
                                            host: "web1", port: 22, serverName: "web")
        #expect(refusal?.message.contains("the host key of web1 differs from the key your team pinned") == true)
        #expect(refusal?.message.contains("essh team pin web,") == true)
    }
}
