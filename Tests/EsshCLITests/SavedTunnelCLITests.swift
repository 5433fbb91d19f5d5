import Foundation
import LocalProcess
import Testing
import TestSupport

/// Saved tunnels from the command line: `servers add/edit --forward`, `servers show`, the JSON round trip, and
/// `essh forward NAME` starting them against the namespace topology (t1 is reachable only from b1), and coming back
/// after the sessions serving them are killed.
@Suite(.serialized) struct SavedTunnelCLITests {
    private struct Setup {
        let s: TestServers
        let dir: TempDir
        var known: String { dir.file("known_hosts") }
        var environment: [String: String] {
            ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path, "ESSH_KNOWN_HOSTS": known, "PATH": "/usr/bin:/bin"]
        }

        init(servers: Bool = true) throws {
            s = try TestServers.require()
            dir = try TempDir()
            try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: dir.file("known_hosts"))
        }

        func essh(_ args: [String], timeout: TimeInterval = 60) throws -> RunResult {
            try Binary.runEssh(args, environment: environment, timeout: timeout)
        }

        func add(_ name: String, _ server: TestServers.NamespaceServer, port: Int? = nil, extra: [String] = [])
            throws
        {
            let r = try essh(["servers", "add", name, "--host", server.host, "--port", "\(port ?? server.port)",
                              "--user", s.user, "--key", s.key("id_ed25519")] + extra)
            #expect(r.status == 0, "\(r.err)")
        }

        /// Trusts `server`'s host key at another port (a `NamespaceSSHD` of its own uses the same keys).
        func trust(_ server: TestServers.NamespaceServer, port: Int) throws {
            let key = try String(contentsOfFile: server.hostKeys + "/ssh_host_ed25519_key.pub", encoding: .utf8)
            let fields = key.split(separator: " ")
            let line = "[\(server.host)]:\(port) \(fields[0]) \(fields[1])\n"
            let handle = try #require(FileHandle(forWritingAtPath: known))
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            handle.closeFile()
        }
    }

    /// `essh forward NAME` in the background, its output in files.
    private final class Running {
        let pid: pid_t
        let dir: TempDir

        init(_ args: [String], environment: [String: String]) throws {
            dir = try TempDir()
            let out = open(dir.file("out"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let err = open(dir.file("err"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
            defer { close(out); close(err); close(input) }
            pid = try ChildProcess.spawn(Binary.essh, args, environment: environment, stdin: input, stdout: out,
                                         stderr: err, closeOtherDescriptors: true, newSession: true)
        }

        var out: String { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
        var err: String { (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "" }

        /// Waits until stdout has `count` lines.
        func lines(_ count: Int, seconds: Int = 20) -> [String] {
            for _ in 0..<(seconds * 20) {
                let got = out.split(separator: "\n").map(String.init)
                if got.count >= count { return got }
                usleep(50_000)
            }
            return out.split(separator: "\n").map(String.init)
        }

        func finish(_ signal: Int32) -> Int32? {
            kill(pid, signal)
            // Looked at before the wait's own kill, so a run that does not end shows where it waits.
            if let status = ChildProcess.wait(pid, timeout: 10, beforeKill: { [self] in
                Issue.record("essh forward did not end within 10 s of signal \(signal); its threads: \(threads())")
            }) {
                return status.shellStatus
            }
            return nil
        }

        /// Each thread of the process as name, kernel wait channel and system call (for a run that did not end).
        private func threads() -> String {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.sorted().map { task -> String in
                let base = "/proc/\(pid)/task/\(task)/"
                let read = { (name: String) in
                    ((try? String(contentsOfFile: base + name, encoding: .utf8)) ?? "?")
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                }
                return "\(read("comm")) \(read("wchan")) [\(read("syscall").split(separator: " ").first ?? "?")] "
                    + read("stack").split(separator: "\n").prefix(4).joined(separator: "<")
            }.joined(separator: "; ")
        }

        deinit {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid, timeout: 5)
            dir.cleanup()
        }
    }

    private static func port(of line: String) -> Int {
        guard let range = line.range(of: "127.0.0.1:") else { return 0 }
        return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// The first bytes a TCP server at 127.0.0.1:port sends (an sshd's greeting).
    private static func greeting(_ port: Int) -> String {
        let fd = LoopbackListener.connectClient(port: port)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &bytes, bytes.count)
        return n > 0 ? String(decoding: bytes[..<n], as: UTF8.self) : ""
    }

    @Test func forwardsAreSavedCheckedShownAndCarriedByTheJSONRoundTrip() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let add = try setup.essh(["servers", "add", "db1", "--host", "10.1.2.3", "--forward", "L:5432:localhost:5432",
                                  "--forward", "d:1080", "--autostart"])
        #expect(add.status == 0, "\(add.err)")
        let edit = try setup.essh(["servers", "edit", "db1", "--forward", "R:8080:localhost:80", "--no-forward",
                                   "D:1080"])
        #expect(edit.status == 0, "\(edit.err)")
        let show = try setup.essh(["servers", "show", "db1"])
        #expect(show.out.contains("tunnels         L:5432:localhost:5432\n                R:8080:localhost:80\n"
                                  + "autostart       yes"), "\(show.out)")
        let json = try setup.essh(["servers", "show", "db1", "--json"])
        #expect(json.out.contains("\"forwards\" : [\n    \"L:5432:localhost:5432\",\n    \"R:8080:localhost:80\"\n  ]"),
                "\(json.out)")
        #expect(json.out.contains("\"autostart\" : true"))
        // The parser of -L/-R/-D refuses, naming the forward; nothing changes.
        let bad = try setup.essh(["servers", "edit", "db1", "--forward", "L:99999:db:1"])
        #expect(bad.status == 2)
        #expect(bad.err == "essh: --forward: -L 99999:db:1: the port to listen on “99999” is not a port (a number "
                + "from 0 (any free port) to 65535).\n")
        let missing = try setup.essh(["servers", "edit", "db1", "--no-forward", "D:1081"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("db1 has no saved tunnel D:1081 (its tunnels: L:5432:localhost:5432, "
                                     + "R:8080:localhost:80)"), "\(missing.err)")
        let noWord = try setup.essh(["servers", "add", "db2", "--host", "h", "--forward", "5432:localhost:5432"])
        #expect(noWord.status == 2 && noWord.err.contains("is not a forward: give L:[bind:]port:host:hostport"))
        // Export, remove, import: the same tunnels and autostart.
        let export = try setup.essh(["servers", "export", "--json"])
        try export.out.write(toFile: setup.dir.file("servers.json"), atomically: true, encoding: .utf8)
        #expect(try setup.essh(["servers", "rm", "db1"]).status == 0)
        let imported = try setup.essh(["servers", "import", setup.dir.file("servers.json")])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(try setup.essh(["servers", "show", "db1", "--json"]).out == json.out)
        // A bad forward in a file is refused with the entry named; nothing is imported.
        let broken = export.out.replacingOccurrences(of: "R:8080:localhost:80", with: "R:8080")
        try broken.write(toFile: setup.dir.file("broken.json"), atomically: true, encoding: .utf8)
        let refused = try setup.essh(["servers", "import", setup.dir.file("broken.json")])
        #expect(refused.status == 2 && refused.err.contains("server 1 (db1): forwards: -R 8080: remote SOCKS "),
                "\(refused.err)")
        // none clears them all.
        #expect(try setup.essh(["servers", "edit", "db1", "--forward", "none", "--no-autostart"]).status == 0)
        #expect(try setup.essh(["servers", "show", "db1"]).out.contains("tunnels         -\n"))
        let nothing = try setup.essh(["forward", "db1"])
        #expect(nothing.status == 2 && nothing.err.contains("db1 has no saved tunnels"), "\(nothing.err)")
    }

    @Test func forwardNameStartsTheSavedTunnelsToAPortOnlyTheBastionReachesAlsoThroughAJump() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        try setup.add("b1", s.jump.b1, extra: ["--forward", "L:0:\(s.jump.t1.host):\(s.jump.t1.port)"])
        // t1 through b1; its own sshd as seen from t1.
        try setup.add("t1", s.jump.t1, extra: ["--jump", "b1", "--forward", "L:0:localhost:\(s.jump.t1.port)",
                                               "--forward", "D:0"])
        for name in ["b1", "t1"] {
            let essh = try Running(["forward", name], environment: setup.environment)
            let lines = essh.lines(name == "b1" ? 1 : 2)
            let local = lines.first { $0.contains(": up, listening on 127.0.0.1:") && $0.contains(" L:0:") }
            #expect(local != nil, "\(name): \(lines) \(essh.err)")
            #expect(Self.greeting(Self.port(of: local ?? "")).hasPrefix("SSH-2.0-OpenSSH"), "\(name)")
            #expect(essh.finish(SIGTERM) == 130)
            // The greeting's connection may still be closing.
            #expect(essh.err.hasPrefix("Stopped \(name == "b1" ? "1 tunnel" : "2 tunnels"); "), "\(essh.err)")
        }
    }

    @Test func aTunnelComesBackAfterTheSessionsServingItAreKilled() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let s = setup.s
        let sshd = try NamespaceSSHD(s.jump.b1, servers: s)
        defer { sshd.stop() }
        try setup.trust(s.jump.b1, port: sshd.port)
        try setup.add("bastion", s.jump.b1, port: sshd.port,
                      extra: ["--forward", "L:0:\(s.jump.t1.host):\(s.jump.t1.port)"])
        let essh = try Running(["forward", "--keepalive", "1", "bastion"], environment: setup.environment)
        let first = essh.lines(1)
        #expect(first.count == 1 && first[0].contains("bastion L:0:\(s.jump.t1.host):\(s.jump.t1.port): up"),
                "\(first) \(essh.err)")
        #expect(Self.greeting(Self.port(of: first.first ?? "")).hasPrefix("SSH-2.0-OpenSSH"))
        sshd.killSessions()
        let again = essh.lines(2, seconds: 30)
        #expect(again.count == 2, "\(essh.err)")
        // 1 s ± 20 % jitter, rounded up.
        #expect(essh.err.contains(": reconnecting in 1 s (attempt 1): the connection was lost")
                || essh.err.contains(": reconnecting in 2 s (attempt 1): the connection was lost"), "\(essh.err)")
        #expect(Self.greeting(Self.port(of: again.last ?? "")).hasPrefix("SSH-2.0-OpenSSH"), "up again")
        #expect(essh.finish(SIGINT) == 130)
    }
}
