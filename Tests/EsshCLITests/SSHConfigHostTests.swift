import Foundation
import Testing
import TestSupport

/// `essh ALIAS` where ALIAS is a Host of ~/.ssh/config, against the real sshd: a temporary HOME whose ssh_config
/// names the harness under aliases.
@Suite struct SSHConfigHostTests {
    /// A HOME with ~/.ssh/config naming the test sshd as `lab1` (and `lab*` defaults), `behind` (the jump
    /// topology's t1, reachable only through its bastion b1, named `lab-b1` there), `piped` (t1 through a
    /// ProxyCommand eSSH does not run) and `broken` (a wrong port); `known_hosts` holds the keys of all of them.
    private func home(_ s: TestServers) throws -> TempDir {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file(".ssh/conf.d"), withIntermediateDirectories: true)
        try """
            # the lab
            Include conf.d/*

            Host behind
                HostName \(s.jump.t1.host)
                Port \(s.jump.t1.port)
                ProxyJump lab-b1
                User \(s.user)
                IdentityFile \(s.key("id_ed25519"))

            Host piped
                HostName \(s.jump.t1.host)
                ProxyCommand nc -X connect -x \(s.jump.b1.host):3128 %h %p

            Host lab*
                User \(s.user)
                IdentityFile \(s.key("id_ed25519"))
            """.write(toFile: dir.file(".ssh/config"), atomically: true, encoding: .utf8)
        try """
            Host lab1
                HostName 127.0.0.1
                Port \(s.port)
            Host lab-b1
                HostName \(s.jump.b1.host)
            """.write(toFile: dir.file(".ssh/conf.d/lab"), atomically: true, encoding: .utf8)
        let known = try String(contentsOfFile: s.knownHosts, encoding: .utf8) + "\n"
            + String(contentsOfFile: s.jump.knownHosts, encoding: .utf8)
        try known.write(toFile: dir.file("all_known_hosts"), atomically: true, encoding: .utf8)
        return dir
    }

    private func essh(_ dir: TempDir, _ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: 60)
    }

    @Test func execShellAndNetReachAHostOfSSHConfigByItsAlias() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        let r = try essh(dir, ["exec", "--known-hosts", s.knownHosts, "-v", "lab1", "--", "echo", "via alias"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "via alias\n")
        #expect(r.err.contains("lab1: from ~/.ssh/conf.d/lab line 1"), "-v says where the name came from: \(r.err)")
        #expect(r.err.contains("~/.ssh/config gives IdentityFile \(s.key("id_ed25519")) (~/.ssh/config line 17)"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")), "nothing saved, no database made")
        // `essh lab1 COMMAND` is exec; `net` too.
        let bare = try Binary.runEssh(["lab1", "echo", "bare"], environment: [
            "ESSH_DB": dir.file("essh.db"), "HOME": dir.path, "ESSH_KNOWN_HOSTS": s.knownHosts,
        ])
        #expect(bare.status == 0 && bare.out == "bare\n", "\(bare.err)")
        let net = try essh(dir, ["net", "--known-hosts", s.knownHosts, "lab1", "routes", "--json"])
        #expect(net.status == 0, "\(net.err)")
        #expect(net.out.contains("\"routes\""))
        // A typed port beats ssh_config's, as with ssh.
        let typed = try essh(dir, ["exec", "--known-hosts", s.knownHosts, "lab1:1", "--", "true"])
        #expect(typed.status == 255 && typed.err.contains("refused the connection on port 1"), "\(typed.err)")
    }

    @Test func aShellOpensOnAHostOfSSHConfigInATerminal() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        let essh = try EsshInTmux(arguments: "shell -v lab1", homeInFolder: true, in: dir)
        defer { essh.stop() }
        try essh.tmux.waitFor(text: "lab1: from ~/.ssh/conf.d/lab line 1")
        try RemoteShellScript.waitForPrompt(essh.tmux, user: s.user)
        try essh.tmux.type("exit 4")
        try essh.tmux.press("Enter")
        try essh.waitForExit(4)
    }

    @Test func aSavedServerOfTheSameNameWinsAndTheMessageSaysSo() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        // The saved lab1 is the real server; ssh_config's lab1 is turned to a closed port to tell them apart.
        try "Host lab1\n    HostName 127.0.0.1\n    Port 1\n"
            .write(toFile: dir.file(".ssh/conf.d/lab"), atomically: true, encoding: .utf8)
        let add = try essh(dir, ["servers", "add", "lab1", "--host", "127.0.0.1", "--port", String(s.port),
                                 "--user", s.user, "--key", s.key("id_ed25519")])
        #expect(add.status == 0, "\(add.err)")
        let r = try essh(dir, ["exec", "--known-hosts", s.knownHosts, "-v", "lab1", "--", "echo", "saved"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "saved\n")
        #expect(r.err.contains("lab1: saved server"))
        #expect(r.err.contains("~/.ssh/conf.d/lab line 1 names lab1 too; the saved server comes first."), "\(r.err)")
    }

    @Test func aProxyJumpOfSSHConfigIsFollowedThroughItsBastion() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        // t1 is reachable only through b1 (`lab-b1`, itself a Host of ssh_config): arriving there proves the jump.
        let r = try essh(dir, ["exec", "--known-hosts", dir.file("all_known_hosts"), "-v", "behind", "--",
                               "echo $SSH_CONNECTION"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasSuffix(" \(s.jump.t1.host) \(s.jump.t1.port)\n"), "\(r.out)")
        let net = try essh(dir, ["net", "--known-hosts", dir.file("all_known_hosts"), "behind", "routes", "--json"])
        #expect(net.status == 0 && net.out.contains("\"routes\""), "\(net.err)")
        // `essh behind COMMAND`, the ssh-like entry, goes the same way.
        let bare = try Binary.runEssh(["behind", "echo", "bare"], environment: [
            "ESSH_DB": dir.file("essh.db"), "HOME": dir.path, "ESSH_KNOWN_HOSTS": dir.file("all_known_hosts"),
        ], timeout: 60)
        #expect(bare.status == 0 && bare.out == "bare\n", "\(bare.err)")
    }

    @Test func aProxyCommandESSHDoesNotRunIsRefusedAndNotConnectedToDirectly() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        for args in [["exec", "--known-hosts", dir.file("all_known_hosts"), "piped", "--", "echo", "DIRECT"],
                     ["net", "--known-hosts", dir.file("all_known_hosts"), "piped", "routes"]] {
            let r = try essh(dir, args)
            #expect(r.status == 2, "\(args): \(r.err)")
            #expect(!r.out.contains("DIRECT"))
            #expect(r.err.hasPrefix("essh: piped is reached through a ProxyCommand (nc -X connect -x "
                                    + "\(s.jump.b1.host):3128 %h %p, ~/.ssh/config line 13) that eSSH does not run"),
                    "\(args): \(r.err)")
        }
        // -J says how to reach it instead.
        let r = try essh(dir, ["exec", "--known-hosts", dir.file("all_known_hosts"), "-J", "lab-b1", "-l", s.user, "-i",
                               s.key("id_ed25519"), "-p", "\(s.jump.t1.port)", "piped", "--", "echo", "via -J"])
        #expect(r.status == 0 && r.out == "via -J\n", "\(r.err)")
    }

    @Test func aFleetListResolvesHostsOfSSHConfigWithTheirJumpHosts() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        // `lab1` exists only in ~/.ssh/config; `behind` is t1 through b1; `piped` cannot be reached as written.
        let r = try essh(dir, ["exec", "--known-hosts", dir.file("all_known_hosts"), "lab1,behind,piped", "--",
                               "echo", "ARRIVED"])
        #expect(r.out.contains("lab1: ARRIVED") && r.out.contains("behind: ARRIVED"), "\(r.out) \(r.err)")
        #expect(!r.out.contains("piped: ARRIVED"), "a ProxyCommand host is never connected to directly")
        #expect(r.err.contains("piped: essh: piped is reached through a ProxyCommand"), "\(r.err)")
        #expect(r.err.contains("2 ok, 1 config-error"), "\(r.err)")
        #expect(r.status != 0)
    }

    @Test func aNameInNeitherPlaceSaysSo() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        let r = try essh(dir, ["exec", "--known-hosts", s.knownHosts, "nosuchbox", "--", "true"])
        #expect(r.status == 255)
        #expect(r.err.contains("No saved server is named “nosuchbox” either (see essh servers list), nor a Host in "
                               + "~/.ssh/config."))
    }
}
