import Foundation
import LocalProcess
import Testing
import TestSupport

/// `essh forward` and `essh proxy` as a person runs them, against the jump topology's bastion b1 (t1 is reachable only
/// from b1).
@Suite(.serialized) struct ForwardCommandTests {
    private func connection(_ s: TestServers) -> [String] {
        ["-i", s.key("id_ed25519"), "--known-hosts", s.jump.knownHosts, "--host-key-policy", "strict"]
    }

    private func b1(_ s: TestServers) -> String { "\(s.user)@\(s.jump.b1.host)" }

    /// essh forward running in the background, its output in files.
    private final class Running {
        let pid: pid_t
        let dir: TempDir

        init(_ args: [String], home: String? = nil) throws {
            dir = try TempDir()
            let out = open(dir.file("out"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let err = open(dir.file("err"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
            defer { close(out); close(err); close(input) }
            pid = try ChildProcess.spawn(Binary.essh, args, environment: ["HOME": home ?? dir.path,
                                                                          "ESSH_DB": dir.file("db"),
                                                                          "PATH": "/usr/bin:/bin"],
                                         stdin: input, stdout: out, stderr: err, closeOtherDescriptors: true,
                                         newSession: true)
        }

        var out: String { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
        var err: String { (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "" }

        /// Waits until stdout has `lines` lines.
        func waitForLines(_ lines: Int) -> [String] {
            for _ in 0..<200 {
                let got = out.split(separator: "\n").map(String.init)
                if got.count >= lines { return got }
                usleep(50_000)
            }
            return out.split(separator: "\n").map(String.init)
        }

        func finish(_ signal: Int32) -> Int32? {
            kill(pid, signal)
            return ChildProcess.wait(pid, timeout: 10)?.shellStatus
        }

        deinit {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid, timeout: 5)
            dir.cleanup()
        }
    }

    private func port(of line: String) -> Int {
        guard let range = line.range(of: "127.0.0.1:") else { return 0 }
        return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    @Test func forwardsUntilSIGTERMThenSaysHowManyConnectionsWereOpen() throws {
        let s = try TestServers.require()
        let essh = try Running(["forward"] + connection(s) + [b1(s), "-L", "0:\(s.jump.t1.host):\(s.jump.t1.port)",
                                                              "-D", "0"])
        let lines = essh.waitForLines(2)
        #expect(lines.count == 2, "\(essh.err)")
        #expect(lines.first?.hasPrefix("-L 0:\(s.jump.t1.host):\(s.jump.t1.port): listening on 127.0.0.1:") == true)
        #expect(lines.last?.hasPrefix("-D 0: SOCKS proxy (SOCKS5, SOCKS4a) on 127.0.0.1:") == true)
        // t1's sshd greets through the tunnel; the connection stays open while essh stops.
        let fd = LoopbackListener.connectClient(port: port(of: lines[0]))
        #expect(fd >= 0, "connected")
        var banner = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &banner, banner.count)
        #expect(n > 0 && String(decoding: banner[..<max(n, 0)], as: UTF8.self).hasPrefix("SSH-2.0-OpenSSH"))
        #expect(essh.finish(SIGTERM) == 130)
        #expect(essh.err == "Stopped; 1 connection was open.\n")
        #expect(read(fd, &banner, banner.count) == 0, "the forwarded connection was closed")
        close(fd)
    }

    @Test func sshsNoCommandFormIsEsshForward() throws {
        let s = try TestServers.require()
        // ssh -N -L …, the value attached or not, options before DEST.
        let essh = try Running(connection(s) + ["-N", "-L0:\(s.jump.t1.host):\(s.jump.t1.port)", "-D", "0", b1(s)])
        let lines = essh.waitForLines(2)
        #expect(lines.first?.hasPrefix("-L 0:\(s.jump.t1.host):\(s.jump.t1.port): listening on ") == true,
                "\(lines) \(essh.err)")
        #expect(lines.last?.hasPrefix("-D 0: SOCKS proxy") == true, "\(lines)")
        #expect(essh.finish(SIGTERM) == 130)
        // -N alone is essh forward DEST alone (saved tunnels, ~/.ssh/config's forwards); a forward without -N, and
        // -N after a subcommand, still say what to type.
        let home = try TempDir()
        defer { home.cleanup() }
        let alone = try Binary.runEssh(["-N", "db1"], environment: ["HOME": home.path, "ESSH_DB": home.file("db")])
        #expect(alone.status == 64 && alone.err.contains("db1 is no saved server, and ~/.ssh/config gives it no "
                                                         + "LocalForward"), "\(alone.err)")
        let late = try Binary.runEssh(["shell", "-N", "db1"])
        #expect(late.status == 64 && late.err.contains("essh -N … DEST, with -N before DEST, runs it"), "\(late.err)")
        let shellForm = try Binary.runEssh(["-L", "8080:localhost:80", "db1"])
        #expect(shellForm.status == 64 && shellForm.err.contains("essh -N -L … DEST says the same"), "\(shellForm.err)")
    }

    @Test func aPortAlreadyInUseEndsWith2AndNamesTheAddress() throws {
        let s = try TestServers.require()
        let taken = try LoopbackListener(.silent)
        defer { taken.close() }
        let r = try Binary.runEssh(["forward"] + connection(s) + [b1(s), "-L", "\(taken.port):localhost:22"],
                                   environment: ["HOME": NSTemporaryDirectory()], timeout: 30)
        #expect(r.status == 2, "\(r.err)")
        #expect(r.err == "essh: -L \(taken.port):localhost:22: 127.0.0.1:\(taken.port) is already in use (another "
                + "program listens there; pick another port, or stop that program).\n")
        #expect(r.out.isEmpty)
    }

    @Test func aRemoteForwardTheServerRefusesEndsWith1() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(["forward"] + connection(s) + ["-p", String(s.jump.b1NoForwardingPort), b1(s),
                                                                  "-R", "0:localhost:22"],
                                   environment: ["HOME": NSTemporaryDirectory()], timeout: 30)
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.hasPrefix("essh: -R 0:localhost:22: \(b1(s)) refused to listen on localhost:0 for us"), "\(r.err)")
    }

    @Test func badForwardsAreUsageErrorsWithASentence() throws {
        let none = try Binary.runEssh(["forward", "somehost"])
        #expect(none.status == 64)
        #expect(none.err.contains("Give at least one forward: -L [bind:]port:host:hostport"), "\(none.err)")
        let bad = try Binary.runEssh(["forward", "somehost", "-L", "80:db"])
        #expect(bad.status == 64)
        #expect(bad.err.contains("-L 80:db: a target is missing"), "\(bad.err)")
        let exposed = try Binary.runEssh(["forward", "somehost", "-D", "0.0.0.0:99999"])
        #expect(exposed.status == 64 && exposed.err.contains("“99999” is not a port"), "\(exposed.err)")
    }

    @Test func aNonLoopbackBindIsWarnedAbout() throws {
        let s = try TestServers.require()
        let essh = try Running(["forward"] + connection(s) + [b1(s), "-D", "*:0"])
        // Every address of both families, at one port.
        let line = essh.waitForLines(1).first ?? ""
        let port = self.port(of: line.replacingOccurrences(of: "0.0.0.0:", with: "127.0.0.1:"))
        #expect(line == "-D *:0: SOCKS proxy (SOCKS5, SOCKS4a) on 0.0.0.0:\(port) and [::]:\(port), connecting "
                + "through \(b1(s))", "\(line) \(essh.err)")
        #expect(essh.finish(SIGINT) == 130)
        #expect(essh.err.hasPrefix("warning: -D *:0 listens on *:0: other machines that reach this address can use "
                                   + "the proxy"), "\(essh.err)")
    }

    /// The first bytes a server at [::1]:port sends.
    private func greetingOnIPv6Loopback(_ port: Int) throws -> String {
        try Spawn.run("/usr/bin/python3", ["-c", "import socket,sys; c=socket.create_connection(('::1', "
                                           + "int(sys.argv[1])), 5); c.settimeout(10); print(c.recv(64).decode())",
                                           String(port)], timeout: 20).out
    }

    /// `essh forward HOST` alone, HOST a Host of ~/.ssh/config and no saved server: its LocalForward and
    /// DynamicForward lines start, as with `ssh -N HOST`; a Unix-socket line is a warning and skipped; the -L is
    /// reached on ::1 as well as 127.0.0.1.
    @Test func forwardAloneStartsTheForwardsSSHConfigGivesTheHost() throws {
        let s = try TestServers.require()
        let home = try TempDir()
        defer { home.cleanup() }
        try FileManager.default.createDirectory(atPath: home.file(".ssh"), withIntermediateDirectories: true)
        try """
            Host tun
              HostName \(s.jump.b1.host)
              User \(s.user)
              IdentityFile \(s.key("id_ed25519"))
              LocalForward 0 \(s.jump.t1.host):\(s.jump.t1.port)
              LocalForward /tmp/essh-never.sock \(s.jump.t1.host):\(s.jump.t1.port)
              DynamicForward localhost:0
            """.write(toFile: home.file(".ssh/config"), atomically: true, encoding: .utf8)
        let essh = try Running(["forward", "--known-hosts", s.jump.knownHosts, "--host-key-policy", "strict", "tun"],
                               home: home.path)
        let lines = essh.waitForLines(2)
        #expect(lines.count == 2, "\(essh.err)")
        let port = self.port(of: lines.first ?? "")
        #expect(lines.first == "-L 0:\(s.jump.t1.host):\(s.jump.t1.port): listening on 127.0.0.1:\(port) and "
                + "[::1]:\(port), forwarding to \(s.jump.t1.host):\(s.jump.t1.port) through tun")
        #expect(lines.last?.hasPrefix("-D localhost:0: SOCKS proxy (SOCKS5, SOCKS4a) on 127.0.0.1:") == true)
        #expect(try greetingOnIPv6Loopback(port).hasPrefix("SSH-2.0-OpenSSH"), "t1's sshd through [::1]:\(port)")
        #expect(essh.finish(SIGINT) == 130)
        #expect(essh.err.hasPrefix("essh: warning: ~/.ssh/config line 6: LocalForward /tmp/essh-never.sock "
                                   + "\(s.jump.t1.host):\(s.jump.t1.port): Unix-domain socket forwarding is not "
                                   + "supported by eSSH (TCP ports only); skipped\n"), "\(essh.err)")
    }

    /// Without forwards to start, the sentence says why: none in ~/.ssh/config, or ClearAllForwardings there.
    @Test func forwardAloneWithoutSSHConfigForwardsSaysWhy() throws {
        let home = try TempDir()
        defer { home.cleanup() }
        try FileManager.default.createDirectory(atPath: home.file(".ssh"), withIntermediateDirectories: true)
        try """
            Host quiet
              LocalForward 8080 db:80
              ClearAllForwardings yes
            Host plain
              HostName 192.0.2.1
            """.write(toFile: home.file(".ssh/config"), atomically: true, encoding: .utf8)
        let env = ["HOME": home.path, "ESSH_DB": home.file("db")]
        let quiet = try Binary.runEssh(["forward", "quiet"], environment: env)
        #expect(quiet.status == 64)
        #expect(quiet.err.contains("(quiet is no saved server, and ClearAllForwardings yes (~/.ssh/config line 3) "
                                   + "clears the forwards ~/.ssh/config gives it)."), "\(quiet.err)")
        let plain = try Binary.runEssh(["forward", "plain"], environment: env)
        #expect(plain.status == 64)
        #expect(plain.err.contains("~/.ssh/config gives it no LocalForward, RemoteForward or DynamicForward"),
                "\(plain.err)")
    }

    @Test func proxyIsOpenSSHsProxyCommandToATargetOnlyTheBastionReaches() throws {
        let s = try TestServers.require()
        let proxy = ([Binary.essh, "proxy", "--to", "%h:%p"] + connection(s) + [b1(s)]).joined(separator: " ")
        let viaW = ([Binary.essh] + connection(s) + ["-W", "%h:%p", b1(s)]).joined(separator: " ")
        for command in [proxy, viaW] {
            let r = try Spawn.run("/usr/bin/ssh", [
                "-o", "ProxyCommand=\(command)", "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=\(s.jump.knownHosts)",
                "-o", "StrictHostKeyChecking=yes", "-i", s.key("id_ed25519"), "-p", String(s.jump.t1.port),
                "\(s.user)@\(s.jump.t1.host)", "echo on $(hostname -I 2>/dev/null || echo t1) via $SSH_CONNECTION",
            ], timeout: 30)
            #expect(r.status == 0, "\(command): \(r.err)")
            // t1 sees the bastion as the client: the connection came from b1's side of their link.
            #expect(r.out.contains(" \(s.jump.t1.host) \(s.jump.t1.port)"), "\(r.out)")
        }
    }

    @Test func proxyWritesOnlyTheTargetsBytesAndNamesAnUnreachableTarget() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(["proxy", "--to", "\(s.jump.t1.host):\(s.jump.t1.port)"] + connection(s) + [b1(s)],
                                   stdin: Data("SSH-2.0-probe\r\n".utf8), environment: ["HOME": NSTemporaryDirectory()],
                                   timeout: 30)
        #expect(r.out.hasPrefix("SSH-2.0-OpenSSH"), "\(r.out) \(r.err)")
        let closed = try Binary.runEssh(["proxy", "--to", "\(s.jump.t1.host):\(s.jump.t1ClosedPort)"] + connection(s)
                                        + [b1(s)], stdin: Data(), environment: ["HOME": NSTemporaryDirectory()],
                                        timeout: 30)
        #expect(closed.status == 255)
        #expect(closed.out.isEmpty)
        #expect(closed.err.contains("\(s.jump.t1.host):\(s.jump.t1ClosedPort) refused the connection (seen from "),
                "\(closed.err)")
    }
}

extension ForwardCommandTests {
    /// -J on forward and proxy: t1 is reached through b1 (each hop checked against known_hosts; the hop's key comes
    /// from ~/.ssh/config, as `-i` is the destination's), and the forward's target is seen from t1: its own sshd.
    @Test func forwardAndProxyThroughAJumpHost() throws {
        let s = try TestServers.require()
        let home = try TempDir()
        defer { home.cleanup() }
        try FileManager.default.createDirectory(atPath: home.file(".ssh"), withIntermediateDirectories: true)
        try """
            Host b1
              HostName \(s.jump.b1.host)
              User \(s.user)
              IdentityFile \(s.key("id_ed25519"))
            """.write(toFile: home.file(".ssh/config"), atomically: true, encoding: .utf8)
        let options = ["-i", s.key("id_ed25519"), "--known-hosts", s.jump.knownHosts, "--host-key-policy", "strict"]
        let t1 = "\(s.user)@\(s.jump.t1.host):\(s.jump.t1.port)"
        let essh = try Running(["forward"] + options + ["-J", "b1", t1, "-L", "0:\(s.jump.t1.host):\(s.jump.t1.port)"],
                               home: home.path)
        let line = essh.waitForLines(1).first ?? ""
        #expect(line.contains("through \(t1)"), "\(line) \(essh.err)")
        let r = try Spawn.run("/usr/bin/ssh", [
            "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=no",
            "-i", s.key("id_ed25519"), "-p", String(port(of: line)), "\(s.user)@127.0.0.1", "echo via-forward",
        ], timeout: 30)
        #expect(r.out == "via-forward\n", "\(r.err)")
        #expect(essh.finish(SIGINT) == 130, "\(essh.err)")

        let proxied = try Binary.runEssh(["proxy", "-J", "b1", "--to", "\(s.jump.t1.host):\(s.jump.t1.port)"] + options
                                         + [t1], stdin: Data("SSH-2.0-probe\r\n".utf8),
                                         environment: ["HOME": home.path, "SSH_AUTH_SOCK": ""], timeout: 30)
        #expect(proxied.out.hasPrefix("SSH-2.0-OpenSSH"), "\(proxied.err)")
    }

    /// An idle tunnel sleeps: the server's keepalive answers, which nothing reads while no connection is open, do not
    /// turn the relay's wait into a busy loop (it used 86 % of a core before).
    @Test func anIdleTunnelSleeps() throws {
        let s = try TestServers.require()
        let essh = try Running(["forward", "--keepalive", "1"] + connection(s) + [b1(s), "-D", "0"])
        #expect(essh.waitForLines(1).count == 1, "\(essh.err)")
        sleep(2)  // keepalives answered, unread
        let before = try ProcessStats.cpuTicks(essh.pid)
        sleep(4)
        let used = try ProcessStats.cpuTicks(essh.pid) - before
        #expect(used < 40, "\(used) ticks of CPU in 4 s of an idle tunnel")
        #expect(essh.finish(SIGTERM) == 130, "\(essh.err)")
    }
}
