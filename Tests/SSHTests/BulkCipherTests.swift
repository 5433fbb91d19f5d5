import Crypto
import Foundation
import Testing
import TestSupport
@testable import SSH

/// Bulk data byte-exact in both directions with each cipher eSSH offers, each on a server that offers only that one:
/// the libssh2 eSSH builds carries a patch to how AES data is handed to OpenSSL
/// (Sources/CLibSSH2/patches/0001-crypt-middle-blocks-in-one-call.patch), so every AES mode and MAC kind is checked.
@Suite struct BulkCipherTests {
    static let cases: [(cipher: String, mac: String?)] = [
        ("aes128-ctr", "hmac-sha2-256"),
        ("aes256-ctr", "hmac-sha2-256-etm@openssh.com"),
        ("aes128-gcm@openssh.com", nil),
        ("aes256-gcm@openssh.com", nil),
        ("chacha20-poly1305@openssh.com", nil),
    ]

    /// An odd length, so packets and 16-byte blocks never line up with the end.
    static let size = 3_000_017

    @Test(arguments: cases.map { "\($0.cipher) \($0.mac ?? "")" })
    func bytesArriveAndLeaveExact(_ label: String) throws {
        let parts = label.split(separator: " ").map(String.init)
        let cipher = parts[0]
        // Every case is a cipher eSSH offers by default (a case it stopped offering must be removed, not skipped).
        try #require(Algorithms.defaults.ciphers.contains(cipher), "\(cipher) is not offered")
        let s = try TestServers.require()
        var extra = ["Ciphers \(cipher)"]
        if parts.count > 1 { extra.append("MACs \(parts[1])") }
        let sshd = try ExtraSSHD(servers: s, extra: extra)
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let knownHosts = dir.file("known_hosts")
        try (sshd.knownHostsLine(servers: s, keyType: "ed25519") + "\n").write(toFile: knownHosts, atomically: true,
                                                                               encoding: .utf8)
        var o = options(s, port: sshd.port)
        o.knownHostsFile = knownHosts
        let session = try connect(s, o)
        let local = try [UInt8](Data(contentsOf: URL(fileURLWithPath: s.data200M)).prefix(Self.size))

        let down = try session.capture("head -c \(Self.size) \(s.data200M)", timeout: 60)
        #expect(down.exit.status == 0, "\(label): \(sshd.log.suffix(500))")
        #expect(down.stdout.count == Self.size, "\(label)")
        #expect(down.stdout == local, "\(label): downloaded bytes differ")

        let up = try session.capture("sha256sum", input: .bytes(local), timeout: 60)
        let want = SHA256.hash(data: local).map { String(format: "%02x", $0) }.joined()
        #expect(String(decoding: up.stdout, as: UTF8.self).hasPrefix(want), "\(label): uploaded bytes differ")
    }
}
