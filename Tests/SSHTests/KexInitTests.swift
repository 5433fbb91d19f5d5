import Foundation
import Testing
@testable import SSH

/// KEXINIT bytes built by hand, the way RFC 4253 §7.1 lays them out (independent of the parser under test).
enum KexInitBytes {
    static func uint32(_ n: Int) -> [UInt8] {
        [UInt8(n >> 24 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
    }

    static func nameList(_ names: [String]) -> [UInt8] {
        let text = Array(names.joined(separator: ",").utf8)
        return uint32(text.count) + text
    }

    /// A KEXINIT payload: byte 20, a cookie, ten name-lists, first_kex_packet_follows, reserved.
    static func payload(kex: [String] = ["curve25519-sha256", "kex-strict-s-v00@openssh.com"],
                        hostKeys: [String] = ["ssh-ed25519"], ciphers: [String] = ["aes128-ctr"],
                        ciphersSC: [String]? = nil, macs: [String] = ["hmac-sha2-256"], macsSC: [String]? = nil,
                        follows: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [20] + (0..<16).map { UInt8($0) }
        for list in [kex, hostKeys, ciphers, ciphersSC ?? ciphers, macs, macsSC ?? macs, ["none"], ["none"], [], []] {
            bytes += nameList(list)
        }
        return bytes + [follows ? 1 : 0] + uint32(0)
    }

    /// A binary packet around `payload` (no MAC before keys exist), with `padding` bytes of padding.
    static func packet(_ payload: [UInt8], padding: Int = 8) -> [UInt8] {
        uint32(1 + payload.count + padding) + [UInt8(padding)] + payload + [UInt8](repeating: 0xAA, count: padding)
    }
}

@Suite struct KexInitTests {
    @Test func aPayloadGivesItsTenListsInOrder() throws {
        let k = try KexInit(payload: KexInitBytes.payload(ciphers: ["aes256-ctr", "aes128-ctr"],
                                                          ciphersSC: ["aes128-ctr"], macsSC: ["hmac-sha1"],
                                                          follows: true))
        #expect(k.kex == ["curve25519-sha256", "kex-strict-s-v00@openssh.com"])
        #expect(k.kexMethods == ["curve25519-sha256"])
        #expect(k.offersStrictKex)
        #expect(k.hostKeys == ["ssh-ed25519"])
        #expect(k.ciphersClientToServer == ["aes256-ctr", "aes128-ctr"])
        #expect(k.ciphersServerToClient == ["aes128-ctr"])
        #expect(k.macsClientToServer == ["hmac-sha2-256"])
        #expect(k.macsServerToClient == ["hmac-sha1"])
        #expect(k.compressionClientToServer == ["none"])
        #expect(k.languagesClientToServer.isEmpty)
        #expect(k.firstKexPacketFollows)
    }

    @Test func aShortOrForeignPayloadIsAProtocolError() {
        let good = KexInitBytes.payload()
        let bads: [[UInt8]] = [[], [20], Array(good.prefix(17)), Array(good.prefix(40)), [21] + good.dropFirst()]
        for bad in bads {
            #expect(throws: SSHError.self) { try KexInit(payload: bad) }
        }
        // A name-list that claims more bytes than are left.
        var long = Array(good.prefix(17)) + KexInitBytes.uint32(5000)
        long += Array("curve25519-sha256".utf8)
        let e = #expect(throws: SSHError.self) { try KexInit(payload: long) }
        #expect(e?.kind == .protocolError)
    }

    @Test func namesAreShownSafelyWhateverBytesTheServerSent() throws {
        var payload: [UInt8] = [20] + [UInt8](repeating: 0, count: 16)
        payload += KexInitBytes.uint32(6) + [0x1b, 0x5b, 0x32, 0x4a, 0x2c, 0x78]  // ESC [ 2 J , x
        for _ in 0..<9 { payload += KexInitBytes.nameList([]) }
        payload += [0] + KexInitBytes.uint32(0)
        #expect(try KexInit(payload: payload).kex == ["?[2J", "x"])
    }

    @Test func theReaderFindsTheKexinitAfterBannerLinesInAnyChunking() throws {
        let payload = KexInitBytes.payload()
        let stream = Array("Welcome\r\nto the box\nSSH-2.0-OpenSSH_9.2p1 Debian\r\n".utf8)
            + KexInitBytes.packet([2] + KexInitBytes.uint32(3) + [1, 2, 3])  // SSH_MSG_IGNORE first
            + KexInitBytes.packet(payload)
        for chunk in [1, 2, 7, 64, stream.count] {
            var reader = KexInitReader()
            var step = KexInitReader.Step.needMore
            var i = 0
            while i < stream.count, step == .needMore {
                step = try reader.feed(stream[i..<min(i + chunk, stream.count)])
                i += chunk
            }
            #expect(step == .done(version: "SSH-2.0-OpenSSH_9.2p1 Debian", kexInit: try KexInit(payload: payload)),
                    "chunks of \(chunk)")
        }
    }

    @Test func theReaderRefusesWhatIsNotSSH2() throws {
        var old = KexInitReader()
        #expect(throws: SSHError.self) { try old.feed(Array("SSH-1.5-ancient\r\n".utf8)) }
        var huge = KexInitReader()
        #expect(throws: SSHError.self) {
            try huge.feed(Array("SSH-2.0-x\r\n".utf8) + KexInitBytes.uint32(10_000_000) + [4])
        }
        var noLine = KexInitReader()
        #expect(throws: SSHError.self) { try noLine.feed([UInt8](repeating: UInt8(ascii: "a"), count: 9000)) }
        var unexpected = KexInitReader()
        #expect(throws: SSHError.self) {
            try unexpected.feed(Array("SSH-2.0-x\r\n".utf8) + KexInitBytes.packet([50, 0, 0]))
        }
    }

    @Test func aDisconnectBeforeTheKexinitSaysWhy() {
        var reader = KexInitReader()
        let reason = Array("Too many connections".utf8)
        let disconnect: [UInt8] = [1] + KexInitBytes.uint32(2) + KexInitBytes.uint32(reason.count) + reason
        let e = #expect(throws: SSHError.self) {
            try reader.feed(Array("SSH-2.0-x\r\n".utf8) + KexInitBytes.packet(disconnect))
        }
        #expect(e?.kind == .disconnected)
        #expect(e?.message.contains("Too many connections") == true)
    }

    /// What OpenSSH 9.2p1 (Debian 12) sent as its first bytes with ed25519, ecdsa and RSA host keys and default
    /// algorithms, captured on loopback (Fixtures/openssh-9.2p1-kexinit.bin: the version line and the packet).
    @Test func aRealOpenSSHKexinitIsRead() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/openssh-9.2p1-kexinit.bin")
        var reader = KexInitReader()
        guard case .done(let version, let k) = try reader.feed([UInt8](try Data(contentsOf: url))) else {
            Issue.record("the capture did not complete a KEXINIT")
            return
        }
        #expect(version == "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10")
        #expect(k.offersStrictKex)
        #expect(k.kexMethods.first == "sntrup761x25519-sha512")
        #expect(k.kexMethods.contains("curve25519-sha256"))
        #expect(k.hostKeys == ["ssh-ed25519", "ecdsa-sha2-nistp256", "rsa-sha2-512", "rsa-sha2-256"])
        #expect(k.ciphersClientToServer == ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr",
                                            "aes256-ctr", "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"])
        #expect(k.macsServerToClient.last == "hmac-sha1")
        #expect(k.compressionClientToServer == ["none", "zlib@openssh.com"])
        #expect(!k.firstKexPacketFollows)
        // eSSH's defaults agree with it on everything.
        #expect(AlgorithmMismatch.find(offered: .defaults, server: k, supported: .supported) == nil)
    }
}

@Suite struct AlgorithmMismatchTests {
    func server(kex: [String] = ["curve25519-sha256"], hostKeys: [String] = ["ssh-ed25519"],
                ciphers: [String] = ["aes128-ctr"], ciphersSC: [String]? = nil, macs: [String] = ["hmac-sha2-256"],
                macsSC: [String]? = nil) throws -> KexInit {
        try KexInit(payload: KexInitBytes.payload(kex: kex, hostKeys: hostKeys, ciphers: ciphers,
                                                  ciphersSC: ciphersSC, macs: macs, macsSC: macsSC))
    }

    @Test func everythingInCommonIsNoMismatch() throws {
        #expect(AlgorithmMismatch.find(offered: .defaults, server: try server(), supported: .supported) == nil)
    }

    @Test func aCipherGapNamesBothSidesAndWhatToAllow() throws {
        let m = try #require(AlgorithmMismatch.find(offered: .defaults, server: try server(ciphers: ["3des-cbc"]),
                                                    supported: .supported))
        #expect(m.gaps.map(\.kind) == [.cipher])
        #expect(m.gaps[0].direction == nil, "the same list both ways is said once")
        let text = m.message(place: "127.0.0.1:2222", library: "1.11.1")
        #expect(text == """
            No cipher in common with 127.0.0.1:2222: the server offers 3des-cbc; eSSH offers \
            \(Algorithms.defaults.ciphers.joined(separator: ", ")). If you trust this device, allow one with \
            --ciphers +3des-cbc (or the server's Ciphers field).
            """)
    }

    @Test func cipherAndMACGapsAreNamedTogether() throws {
        let m = try #require(AlgorithmMismatch.find(
            offered: .defaults, server: try server(ciphers: ["aes128-cbc"], macs: ["hmac-sha1", "hmac-md5"]),
            supported: .supported))
        #expect(m.gaps.map(\.kind) == [.cipher, .mac])
        #expect(m.gaps[1].allowable == ["hmac-sha1", "hmac-md5"])
        let text = m.message(place: "old", library: "1.11.1")
        #expect(text.contains("No MAC in common with old: the server offers hmac-sha1, hmac-md5; eSSH offers "
                              + "hmac-sha2-256-etm@openssh.com"))
        #expect(text.hasSuffix("allow them with --ciphers +aes128-cbc --macs +hmac-sha1 (or the server's Ciphers "
                               + "and MACs fields)."))
    }

    @Test func anAESGCMCipherNeedsNoMACButChaChaDoesInLibssh2() throws {
        // The server's GCM is agreed: its SHA-1-only MAC list does not matter.
        #expect(AlgorithmMismatch.find(offered: .defaults,
                                       server: try server(ciphers: ["aes128-gcm@openssh.com"], macs: ["hmac-sha1"]),
                                       supported: .supported) == nil)
        // With chacha20-poly1305 libssh2 still wants a MAC in common (measured: handshake -5).
        let m = try #require(AlgorithmMismatch.find(
            offered: .defaults, server: try server(ciphers: ["chacha20-poly1305@openssh.com"], macs: ["hmac-sha1"]),
            supported: .supported))
        #expect(m.gaps.map(\.kind) == [.mac])
        #expect(m.message(place: "h", library: "1.11.1").contains("does not use the MAC, but libssh2 still needs one"))
    }

    @Test func onlyOneDirectionFailingIsSaidWithItsDirection() throws {
        let m = try #require(AlgorithmMismatch.find(
            offered: .defaults, server: try server(ciphers: ["aes128-ctr"], ciphersSC: ["aes128-cbc"]),
            supported: .supported))
        #expect(m.gaps.map(\.direction) == ["server to client"])
        #expect(m.message(place: "h", library: "x").contains("No cipher in common with h (server to client)"))
    }

    @Test func keyExchangeAndHostKeyGapsAndTheSHA1Warning() throws {
        let m = try #require(AlgorithmMismatch.find(
            offered: .defaults,
            server: try server(kex: ["diffie-hellman-group14-sha1", "kex-strict-s-v00@openssh.com"],
                               hostKeys: ["ssh-rsa"]),
            supported: .supported))
        #expect(m.gaps.map(\.kind) == [.kex, .hostKey])
        #expect(m.gaps[0].serverOffers == ["diffie-hellman-group14-sha1"], "markers are not offers")
        let text = m.message(place: "h", library: "1.11.1")
        #expect(text.contains("No key exchange in common with h: the server offers diffie-hellman-group14-sha1;"))
        #expect(text.contains("--kex +diffie-hellman-group14-sha1 --host-key-algorithms +ssh-rsa (ssh-rsa signs "
                              + "with SHA-1"))
    }

    @Test func whatNoLibssh2CanDoGetsNoAllowButARemedy() throws {
        // A libssh2 without rsa-sha2 (before 1.11) meeting an RSA-only OpenSSH 8.8+ host.
        // What such a library offers and supports: the defaults it can do (SSHSession.setPreferences filters them).
        var old = Algorithms.supported
        old.hostKeys.removeAll { $0.hasPrefix("rsa-sha2-") }
        var offered = Algorithms.defaults
        offered.hostKeys.removeAll { $0.hasPrefix("rsa-sha2-") }
        let rsaOnly = try #require(AlgorithmMismatch.find(
            offered: offered, server: try server(hostKeys: ["rsa-sha2-512", "rsa-sha2-256"]), supported: old))
        let text = rsaOnly.message(place: "h", library: "1.10.0")
        #expect(text.contains("cannot verify: build eSSH with libssh2 1.11 or newer (make build)"))
        #expect(!text.contains("If you trust this device"))
        // A post-quantum-only server: nothing libssh2 knows.
        let pq = try #require(AlgorithmMismatch.find(
            offered: .defaults, server: try server(kex: ["mlkem768x25519-sha256"]), supported: .supported))
        #expect(pq.message(place: "h", library: "1.11.1").contains("supports none of the server's key exchanges"))
    }
}
