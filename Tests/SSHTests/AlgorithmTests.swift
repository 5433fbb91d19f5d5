import Foundation
import Testing
import TestSupport
@testable import SSH

/// Algorithms against real OpenSSH servers (`ExtraSSHD`, one per test, configured for it): RSA-only hosts, each
/// cipher, lists with nothing in common and what the person is told, and what eSSH offers on the wire.
@Suite struct AlgorithmTests {
    func options(_ s: TestServers, _ sshd: ExtraSSHD, knownHosts: String,
                 policy: HostKeyPolicy = .strict) -> ConnectOptions {
        var o = SSHTests.options(s, port: sshd.port)
        o.knownHostsFile = knownHosts
        o.hostKeyPolicy = policy
        return o
    }

    /// known_hosts trusting `sshd`'s key of `type`.
    func knownHosts(_ s: TestServers, _ sshd: ExtraSSHD, _ dir: TempDir, type: String = "ed25519") throws -> String {
        let file = dir.file("known_hosts")
        try (try sshd.knownHostsLine(servers: s, keyType: type) + "\n").write(toFile: file, atomically: true,
                                                                              encoding: .utf8)
        return file
    }

    @Test func eSSHsDefaultsLeaveTheWeakAlgorithmsOut() {
        let d = Algorithms.defaults
        // AES-GCM leads with eSSH's patched libssh2 (AES a packet at a time), chacha20-poly1305 with a system one.
        #expect(d.ciphers.first == (SSHLibrary.batchesCrypt ? "aes128-gcm@openssh.com" : "chacha20-poly1305@openssh.com"))
        #expect(Set(d.ciphers) == ["chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com",
                                   "aes256-ctr", "aes192-ctr", "aes128-ctr"])
        #expect(d.macs.prefix(2) == ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com"])
        #expect(d.hostKeys.suffix(2) == ["rsa-sha2-512", "rsa-sha2-256"])
        let all = d.kex + d.hostKeys + d.ciphers + d.macs
        for weak in ["ssh-rsa", "ssh-dss", "diffie-hellman-group14-sha1", "diffie-hellman-group1-sha1",
                     "diffie-hellman-group-exchange-sha1", "3des-cbc", "aes128-cbc", "aes256-cbc", "arcfour",
                     "blowfish-cbc", "hmac-sha1", "hmac-sha1-etm@openssh.com", "hmac-md5", "hmac-ripemd160"] {
            #expect(!all.contains(weak), "\(weak)")
        }
        // This libssh2 can do every default, so nothing is dropped silently.
        for kind in AlgorithmKind.allCases {
            #expect(Set(d[kind]).isSubset(of: Algorithms.supported[kind]), "\(kind)")
        }
        #expect(!Algorithms.supported.kex.contains("kex-strict-c-v00@openssh.com"), "markers are not choices")
        #expect(!Algorithms.supported.hostKeys.contains { $0.contains("-cert-") })
        #expect(Algorithms.supported.ciphers.contains("3des-cbc"), "weak ones stay nameable")
    }

    @Test func anRSAOnlyHostIsVerifiedStoredAsSshRsaAndAChangedKeyRefused() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, hostKeys: ["rsa"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let file = dir.file("known_hosts")

        // Unknown under strict: refused, naming the key's type and fingerprint.
        let unknown = sshError { _ = try connect(s, options(s, sshd, knownHosts: file)) }
        #expect(unknown?.kind == .hostKeyUnknown)
        #expect(unknown?.message.contains("ssh-rsa SHA256:") == true)

        // accept-new: rsa-sha2-512 was negotiated, the key is stored with its real type.
        let first = try connect(s, options(s, sshd, knownHosts: file, policy: .acceptNew))
        #expect(first.negotiated.hostKey == "rsa-sha2-512")
        #expect(first.hostKey.type == "ssh-rsa")
        #expect(String(decoding: try first.capture("echo rsa-ok").stdout, as: UTF8.self) == "rsa-ok\n")
        first.disconnect()
        let stored = try String(contentsOfFile: file, encoding: .utf8)
        #expect(stored.split(separator: " ").dropFirst().first == "ssh-rsa")
        // OpenSSH reads the entry eSSH wrote.
        let found = try Binary.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(sshd.port)", "-f", file])
        #expect(found.status == 0)
        #expect(found.out.contains("ssh-rsa"))

        // Again, strict: the stored key matches.
        let again = try connect(s, options(s, sshd, knownHosts: file))
        #expect(again.hostKey == first.hostKey)
        again.disconnect()

        // Another RSA key stored for the host: refused as changed, both fingerprints named.
        let other = try TempDir()
        defer { other.cleanup() }
        let keygen = try Binary.run("/usr/bin/ssh-keygen", ["-q", "-t", "rsa", "-b", "2048", "-N", "", "-C", "",
                                                             "-f", other.file("rsa")])
        try #require(keygen.status == 0, "\(keygen.err)")
        let otherPub = try String(contentsOfFile: other.file("rsa.pub"), encoding: .utf8).split(separator: " ")
        try "[127.0.0.1]:\(sshd.port) ssh-rsa \(otherPub[1])\n".write(toFile: file, atomically: true, encoding: .utf8)
        let otherFingerprint = try Binary.run("/usr/bin/ssh-keygen", ["-l", "-f", other.file("rsa.pub")])
            .out.split(separator: " ")[1]
        let changed = sshError { _ = try connect(s, options(s, sshd, knownHosts: file)) }
        #expect(changed?.kind == .hostKeyChanged)
        #expect(changed?.message.contains("The server now sends: ssh-rsa \(first.hostKey.fingerprint)") == true)
        #expect(changed?.message.contains("ssh-rsa \(otherFingerprint)") == true)
    }

    @Test func aStoredRSAKeyPutsRSASignaturesFirstOnAHostWithEveryKeyType() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s)
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        // OpenSSH stored only the RSA key: eSSH must ask for it rather than meet an "unknown" ed25519 key.
        let session = try connect(s, options(s, sshd, knownHosts: try knownHosts(s, sshd, dir, type: "rsa")))
        #expect(session.negotiated.hostKey == "rsa-sha2-512")
        #expect(session.hostKey.type == "ssh-rsa")
    }

    @Test(arguments: ["chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr"])
    func eachCipherIsNegotiatedAndWorks(cipher: String) throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, extra: ["Ciphers \(cipher)", "MACs hmac-sha2-256-etm@openssh.com"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let session = try connect(s, options(s, sshd, knownHosts: try knownHosts(s, sshd, dir)))
        let n = session.negotiated
        #expect(n.cipherClientToServer == cipher)
        #expect(n.cipherServerToClient == cipher)
        let mac: String? = cipher == "aes128-ctr" ? "hmac-sha2-256-etm@openssh.com" : nil
        #expect(n.macClientToServer == mac)
        #expect(n.macServerToClient == mac)
        #expect(n.kex == "curve25519-sha256")
        #expect(n.hostKey == "ssh-ed25519")
        #expect(String(decoding: try session.capture("echo \(cipher)").stdout, as: UTF8.self) == "\(cipher)\n")
    }

    @Test func weakOnlyServerGetsAMessageNamingBothSidesThenWorksWhenAllowed() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, extra: ["Ciphers aes128-cbc", "MACs hmac-sha1"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        var o = options(s, sshd, knownHosts: try knownHosts(s, sshd, dir))
        let started = Date()
        let e = sshError { _ = try connect(s, o) }
        #expect(Date().timeIntervalSince(started) < 4, "the probe is short")
        #expect(e?.kind == .noCommonAlgorithm)
        let text = e?.message ?? ""
        #expect(text.contains("No cipher in common with 127.0.0.1:\(sshd.port): the server offers aes128-cbc; "
                              + "eSSH offers " + Algorithms.defaults.ciphers.joined(separator: ", ")))
        #expect(text.contains("No MAC in common with 127.0.0.1:\(sshd.port): the server offers hmac-sha1; "
                              + "eSSH offers hmac-sha2-256-etm@openssh.com"))
        #expect(text.contains("allow them with --ciphers +aes128-cbc --macs +hmac-sha1"))
        #expect(!text.contains("handshake failed"))
        #expect(e?.detail.contains("[libssh2 -5]") == true, "LIBSSH2_ERROR_KEX_FAILURE")
        // The server saw our probe too: it logged the version line the probe sent.
        #expect(sshd.log.contains("eSSH_algorithm_probe"))

        o.algorithms.ciphers += ["aes128-cbc"]
        o.algorithms.macs += ["hmac-sha1"]
        let session = try connect(s, o)
        #expect(session.negotiated.cipherClientToServer == "aes128-cbc")
        #expect(session.negotiated.macServerToClient == "hmac-sha1")
        #expect(String(decoding: try session.capture("echo old").stdout, as: UTF8.self) == "old\n")
    }

    @Test func keyExchangeAndHostKeyGapsAreExplainedToo() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, hostKeys: ["rsa"],
                                 extra: ["KexAlgorithms diffie-hellman-group14-sha1", "HostKeyAlgorithms ssh-rsa"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        var o = options(s, sshd, knownHosts: try knownHosts(s, sshd, dir, type: "rsa"))
        let e = sshError { _ = try connect(s, o) }
        #expect(e?.kind == .noCommonAlgorithm)
        #expect(e?.message.contains("No key exchange in common with 127.0.0.1:\(sshd.port): the server offers "
                                    + "diffie-hellman-group14-sha1;") == true)
        #expect(e?.message.contains("No host key algorithm in common") == true)
        #expect(e?.message.contains("--kex +diffie-hellman-group14-sha1 --host-key-algorithms +ssh-rsa") == true)
        o.algorithms.kex += ["diffie-hellman-group14-sha1"]
        o.algorithms.hostKeys += ["ssh-rsa"]
        let session = try connect(s, o)
        #expect(session.negotiated.kex == "diffie-hellman-group14-sha1")
        #expect(session.negotiated.hostKey == "ssh-rsa")
        #expect(session.hostKey.type == "ssh-rsa", "the stored RSA key matched")
    }

    @Test func theProbeReadsWhatTheServerOffers() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, extra: ["Ciphers aes256-gcm@openssh.com"])
        defer { sshd.stop() }
        let (version, k) = try KexInitProbe.fetch(address: "127.0.0.1", port: sshd.port, timeout: 5, cancel: nil)
        #expect(version.hasPrefix("SSH-2.0-OpenSSH_"))
        #expect(k.ciphersClientToServer == ["aes256-gcm@openssh.com"])
        #expect(k.offersStrictKex)
        #expect(k.hostKeys.contains("ssh-ed25519"))
    }

    @Test func whatESSHOffersOnTheWireKeepsStrictKexAndTheKnownTypeFirst() throws {
        let s = try TestServers.require()
        let catcher = try ClientKexInitCatcher()
        defer { catcher.close() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        var o = ConnectOptions(host: "127.0.0.1", port: catcher.port, user: "nobody", knownHostsFile: dir.file("kh"))
        // known_hosts holds an RSA key for the host (any RSA key: the catcher never shows one).
        let rsa = try String(contentsOfFile: s.hostKeys + "/ssh_host_rsa_key.pub", encoding: .utf8)
            .split(separator: " ")
        try "[127.0.0.1]:\(catcher.port) ssh-rsa \(rsa[1])\n".write(toFile: dir.file("kh"), atomically: true,
                                                                    encoding: .utf8)
        o.globalKnownHostsFiles = []
        o.connectTimeout = 3
        o.algorithms.ciphers = ["aes256-gcm@openssh.com", "aes128-ctr"]
        _ = sshError { _ = try SSHSession.connect(o) }
        let k = try #require(catcher.clientKexInit(timeout: 3))
        // libssh2 puts the extension markers first by itself; the rest is eSSH's list.
        #expect(k.kex == ["ext-info-c", "kex-strict-c-v00@openssh.com"] + Algorithms.defaults.kex)
        #expect(k.hostKeys == ["rsa-sha2-512", "rsa-sha2-256", "ssh-ed25519", "ecdsa-sha2-nistp256",
                               "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521"])
        #expect(k.ciphersClientToServer == ["aes256-gcm@openssh.com", "aes128-ctr"])
        #expect(k.ciphersServerToClient == ["aes256-gcm@openssh.com", "aes128-ctr"])
        #expect(k.macsClientToServer == Algorithms.defaults.macs)
        #expect(k.macsServerToClient == Algorithms.defaults.macs)
    }

    @Test func negotiatedAlgorithmsReadAsVerboseLines() {
        let n = NegotiatedAlgorithms(kex: "curve25519-sha256", hostKey: "rsa-sha2-512",
                                     cipherClientToServer: "aes128-ctr",
                                     cipherServerToClient: "chacha20-poly1305@openssh.com",
                                     macClientToServer: "hmac-sha2-256-etm@openssh.com", macServerToClient: nil)
        #expect(n.lines == [
            "key exchange curve25519-sha256, host key rsa-sha2-512",
            "client to server: cipher aes128-ctr, MAC hmac-sha2-256-etm@openssh.com",
            "server to client: cipher chacha20-poly1305@openssh.com, MAC implicit (AEAD)",
        ])
    }
}

/// A loopback listener that plays an SSH server just long enough to read what the client offers: it sends a version
/// line, reads the client's version and KEXINIT (unencrypted) with eSSH's own reader, and closes.
final class ClientKexInitCatcher: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var caught: KexInit?
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw SSHError(.io, "bind", "cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let listener = fd
        Thread.detachNewThread { [self] in
            let client = accept(listener, nil, nil)
            defer { if client >= 0 { Glibc.close(client) }; done.signal() }
            guard client >= 0 else { return }
            _ = "SSH-2.0-OpenSSH_9.9 catcher\r\n".withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            var reader = KexInitReader()
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard n > 0, let step = try? reader.feed(chunk[..<n]) else { return }
                if case .done(_, let k) = step {
                    lock.lock()
                    caught = k
                    lock.unlock()
                    return
                }
            }
        }
    }

    /// The client's KEXINIT, once read (nil when none came within `timeout`).
    func clientKexInit(timeout: Double) -> KexInit? {
        _ = done.wait(timeout: .now() + timeout)
        lock.lock()
        defer { lock.unlock() }
        return caught
    }

    func close() { Glibc.close(fd) }
}
