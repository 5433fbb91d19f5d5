import Foundation
import Testing
import TestSupport

/// libssh2 1.11 from the command line: RSA keys log in, and the server's pre-login banner is shown (sanitised).
@Suite struct RSAAndBannerTests {
    func base(_ s: TestServers, port: Int, key: String = "id_ed25519", knownHosts: String) -> [String] {
        ["exec", "--known-hosts", knownHosts, "--host-key-policy", "accept-new", "-i", s.key(key),
         "-p", String(port)]
    }

    @Test(arguments: ["id_rsa", "id_ed25519"])
    func execLogsInWithTheKey(key: String) throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "-i", s.key(key), "-p", String(s.port),
                                    "\(s.user)@127.0.0.1", "echo logged-in"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "logged-in\n")
    }

    @Test func theBannerGoesToStderrWithItsEscapesNeutralised() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        chmod(dir.path, 0o755)
        try "Authorised use only.\n\u{1B}]0;owned\u{07}\u{1B}[2Jcleared?\n".write(toFile: dir.file("banner"),
                                                                                atomically: true, encoding: .utf8)
        chmod(dir.file("banner"), 0o644)
        let sshd = try ExtraSSHD(servers: s, extra: ["Banner \"\(dir.file("banner"))\""])
        defer { sshd.stop() }
        let args = base(s, port: sshd.port, knownHosts: dir.file("known_hosts")) + ["\(s.user)@127.0.0.1", "echo ok"]
        let r = try Binary.runEssh(args)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "ok\n", "the banner never mixes into the command's output")
        #expect(r.err.contains("Authorised use only.\n"))
        #expect(!r.err.contains("\u{1B}"), "no raw escape reaches the terminal: \(r.err.debugDescription)")
        #expect(!r.err.contains("\u{07}"))
        let quiet = try Binary.runEssh(base(s, port: sshd.port, knownHosts: dir.file("known_hosts"))
                                       + ["-q", "\(s.user)@127.0.0.1", "echo ok"])
        #expect(quiet.status == 0, "\(quiet.err)")
        #expect(!quiet.err.contains("Authorised"), "-q hides the banner")
    }
}
