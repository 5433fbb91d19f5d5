import Foundation
import Testing
import TestSupport

/// `--ciphers`/`-c`, `--kex`, `--macs`, `--host-key-algorithms`, the saved server's lists and `-v`, run as a user
/// would against sshd instances restricted for the test (`ExtraSSHD`).
@Suite struct AlgorithmOptionsTests {
    /// exec options that trust `sshd`'s ed25519 key and log in with the harness's key.
    func base(_ s: TestServers, _ sshd: ExtraSSHD, _ dir: TempDir) throws -> [String] {
        let knownHosts = dir.file("known_hosts")
        try (try sshd.knownHostsLine(servers: s, keyType: "ed25519") + "\n").write(toFile: knownHosts,
                                                                                   atomically: true, encoding: .utf8)
        return ["exec", "--known-hosts", knownHosts, "-i", s.key("id_ed25519")]
    }

    func dest(_ s: TestServers, _ sshd: ExtraSSHD) -> String { "\(s.user)@127.0.0.1:\(sshd.port)" }

    func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    @Test(arguments: ["chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr"])
    func verboseNamesTheNegotiatedAlgorithms(cipher: String) throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, extra: ["Ciphers \(cipher)", "MACs hmac-sha2-256-etm@openssh.com"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, try base(s, sshd, dir) + ["-v", dest(s, sshd), "echo ok"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "ok\n")
        let mac = cipher == "aes128-ctr" ? "hmac-sha2-256-etm@openssh.com" : "implicit (AEAD)"
        #expect(r.err.contains("key exchange curve25519-sha256, host key ssh-ed25519"))
        #expect(r.err.contains("client to server: cipher \(cipher), MAC \(mac)"))
        #expect(r.err.contains("server to client: cipher \(cipher), MAC \(mac)"))
        // Without -v nothing of it is printed.
        let quiet = try essh(dir, try base(s, sshd, dir) + [dest(s, sshd), "true"])
        #expect(quiet.status == 0 && quiet.err.isEmpty, "\(quiet.err)")
    }

    @Test func aWeakOnlyServerIsRefusedWithBothSidesNamedThenAllowedOnTheCommandLine() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, extra: ["Ciphers aes128-cbc", "MACs hmac-sha1"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let refused = try essh(dir, try base(s, sshd, dir) + [dest(s, sshd), "echo ok"])
        #expect(refused.status == 255)
        #expect(refused.out.isEmpty)
        // eSSH's six ciphers, in the order this build prefers (AES-GCM first with its patched libssh2).
        #expect(refused.err.hasPrefix("essh: No cipher in common with 127.0.0.1:\(sshd.port): the server offers "
                                      + "aes128-cbc; eSSH offers "), "\(refused.err)")
        let sentence = refused.err.components(separatedBy: "eSSH offers ").dropFirst().first ?? ""
        let offered = (sentence.range(of: #"\.(\s|$)"#, options: .regularExpression).map { String(sentence[..<$0.lowerBound]) }
            ?? sentence).components(separatedBy: ", ")
        #expect(Set(offered) == ["chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com",
                                 "aes256-ctr", "aes192-ctr", "aes128-ctr"], "\(refused.err)")
        #expect(refused.err.contains("No MAC in common with 127.0.0.1:\(sshd.port): the server offers hmac-sha1; "
                                     + "eSSH offers hmac-sha2-256-etm@openssh.com"))
        #expect(refused.err.contains("If you trust this device, allow them with --ciphers +aes128-cbc --macs "
                                     + "+hmac-sha1"))
        #expect(!refused.err.lowercased().contains("handshake"))

        let allowed = try essh(dir, try base(s, sshd, dir) + ["-c", "+aes128-cbc", "--macs=+hmac-sha1", "-v",
                                                              dest(s, sshd), "echo ok"])
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(allowed.out == "ok\n")
        #expect(allowed.err.contains("client to server: cipher aes128-cbc, MAC hmac-sha1"))
        // A list that only removes what the server needs is refused again.
        let removed = try essh(dir, try base(s, sshd, dir) + ["--ciphers", "aes128-cbc,aes256-ctr", "--macs",
                                                              "-hmac-sha2-512", dest(s, sshd), "true"])
        #expect(removed.status == 255)
        #expect(removed.err.contains("No MAC in common"))
        #expect(!removed.err.contains("No cipher in common"))
    }

    @Test func aSavedServersListsAreUsedByExecAndFleetAndExportedForOpenSSH() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, extra: ["Ciphers aes128-cbc", "MACs hmac-sha1"])
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let knownHosts = try base(s, sshd, dir)[2]
        let add = try essh(dir, ["servers", "add", "router", "--host", "127.0.0.1", "--port", String(sshd.port),
                                 "--user", s.user, "--key", s.key("id_ed25519"), "--tag", "old",
                                 "--ciphers", "+aes128-cbc", "--macs", "+hmac-sha1"])
        #expect(add.status == 0, "\(add.err)")
        let exec = try essh(dir, ["exec", "--known-hosts", knownHosts, "-v", "router", "echo saved"])
        #expect(exec.status == 0, "\(exec.err)")
        #expect(exec.out == "saved\n")
        #expect(exec.err.contains("cipher aes128-cbc, MAC hmac-sha1"))
        let fleet = try essh(dir, ["exec", "--tag", "old", "--known-hosts", knownHosts, "--", "echo fleet"])
        #expect(fleet.status == 0, "\(fleet.err)")
        #expect(fleet.out == "router: fleet\n")
        // The command line goes on top of the saved lists: taking the cipher away again fails.
        let minus = try essh(dir, ["exec", "--known-hosts", knownHosts, "--ciphers=-aes128-cbc", "router", "true"])
        #expect(minus.status == 255)
        #expect(minus.err.contains("No cipher in common"))

        // Exported for OpenSSH: its own client reads the lists.
        let export = try essh(dir, ["servers", "export"])
        #expect(export.out.contains("    Ciphers +aes128-cbc\n    MACs +hmac-sha1\n"))
        try export.stdout.write(to: URL(fileURLWithPath: dir.file("config")))
        let g = try Binary.run("/usr/bin/ssh", ["-G", "-F", dir.file("config"), "router"])
        #expect(g.status == 0, "\(g.err)")
        #expect(g.out.split(separator: "\n").contains { $0.hasPrefix("ciphers ") && $0.hasSuffix(",aes128-cbc") })
        let json = try essh(dir, ["servers", "list", "--json"])
        #expect(json.out.contains("\"Ciphers\" : \"+aes128-cbc\""))

        // Editing one list back to the defaults: the server is refused again, naming the MAC still allowed.
        #expect(try essh(dir, ["servers", "edit", "router", "--ciphers", ""]).status == 0)
        let again = try essh(dir, ["exec", "--known-hosts", knownHosts, "router", "true"])
        #expect(again.status == 255)
        #expect(again.err.contains("No cipher in common"))
        #expect(!again.err.contains("No MAC in common"), "the saved MAC list still applies")
    }

    @Test func anUnknownNameIsRefusedBeforeConnecting() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        // Port 1 refuses connections at once: had essh connected, it would say so.
        for args in [["-c", "+aes128cbc"], ["--kex", "sntrup761x25519-sha512@openssh.com"],
                     ["--macs", "^hmac-sha3"], ["--host-key-algorithms", "+ssh-dss"]] {
            let r = try essh(dir, ["exec"] + args + ["127.0.0.1:1", "true"])
            #expect(r.status != 0 && r.status != 255, "\(args): \(r.status)")
            #expect(r.err.contains("is not a"), "\(r.err)")
            #expect(r.err.contains("eSSH supports. It supports: "), "\(r.err)")
            #expect(!r.err.contains("refused"), "nothing connected: \(r.err)")
        }
        let r = try essh(dir, ["exec", "--ciphers", "+aes128cbc", "127.0.0.1:1", "true"])
        #expect(r.err.contains("--ciphers +aes128cbc: “aes128cbc” is not a cipher eSSH supports. It supports: "
                               + "chacha20-poly1305@openssh.com"))
        let nothing = try essh(dir, ["exec", "--ciphers", "-*", "127.0.0.1:1", "true"])
        #expect(nothing.err.contains("--ciphers -*: no cipher would be left to offer."))
        // The same check guards what is saved.
        let add = try essh(dir, ["servers", "add", "r", "--host", "h", "--macs", "+hmac-sha3"])
        #expect(add.status == 2)
        #expect(add.err.contains("The MACs field of r (+hmac-sha3): “hmac-sha3” is not a MAC eSSH supports."))
        let spaced = try essh(dir, ["servers", "add", "r", "--host", "h", "--ciphers", "a, b"])
        #expect(spaced.status == 2)
        #expect(spaced.err.contains("contains a space"))
        #expect(try essh(dir, ["servers", "list", "--json"]).out.contains("\"r\"") == false)
    }
}
