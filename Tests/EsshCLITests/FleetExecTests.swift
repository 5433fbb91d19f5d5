import Foundation
import Testing
import TestSupport

/// `essh exec` on many servers: the real sshd on three loopback addresses, a closed port and a listener that never
/// answers (its backlog is full).
@Suite struct FleetExecTests {
    /// A database with web1..web3 (the real sshd on 127.0.0.1-3, tag web), `closed` (nothing listens) and, when
    /// given, `dropped` (SYNs dropped) tagged `bad`.
    private func fleet(_ s: TestServers, _ dir: TempDir, dropped: Int? = nil) throws {
        for i in 1...3 {
            try add(dir, ["web\(i)", "--host", "127.0.0.\(i)", "--port", String(s.port), "--user", s.user,
                          "--key", s.key("id_ed25519"), "--tag", "web"])
        }
        try add(dir, ["closed", "--host", "127.0.0.1", "--port", String(try LoopbackListener.closedPort()),
                      "--user", s.user, "--key", s.key("id_ed25519"), "--tag", "bad"])
        if let dropped {
            try add(dir, ["dropped", "--host", "127.0.0.1", "--port", String(dropped), "--user", s.user,
                          "--key", s.key("id_ed25519"), "--tag", "bad"])
        }
    }

    private func add(_ dir: TempDir, _ args: [String]) throws {
        let r = try essh(dir, ["servers", "add"] + args)
        #expect(r.status == 0, "\(r.err)")
    }

    private func essh(_ dir: TempDir, _ args: [String], timeout: TimeInterval = 30) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: timeout)
    }

    private func results(_ r: RunResult) throws -> [String: [String: Any]] {
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let list = object?["results"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test func prefixedLinesASummaryAndExitZeroWhenAllSucceed() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let r = try essh(dir, ["exec", "--tag", "web", "--known-hosts", s.knownHosts, "echo out; echo err >&2"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.split(separator: "\n").sorted() == ["web1: out", "web2: out", "web3: out"])
        #expect(r.err.contains("web1: err\n") && r.err.contains("web3: err\n"))
        #expect(r.err.contains("3 servers: 3 ok in "))
    }

    /// RSA keys (rsa-sha2 signatures) and an RSA-only host in one fleet run, beside ed25519 ones.
    @Test func rsaKeysAndAnRSAOnlyHostRunInAFleet() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let rsaOnly = try ExtraSSHD(servers: s, hostKeys: ["rsa"])
        defer { rsaOnly.stop() }
        let knownHosts = dir.file("known_hosts")
        try (String(contentsOfFile: s.knownHosts, encoding: .utf8)
             + (try rsaOnly.knownHostsLine(servers: s, keyType: "rsa")) + "\n")
            .write(toFile: knownHosts, atomically: true, encoding: .utf8)
        try add(dir, ["rsa-key", "--host", "127.0.0.1", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_rsa"), "--tag", "mixed"])
        try add(dir, ["rsa-host", "--host", "127.0.0.1", "--port", String(rsaOnly.port), "--user", s.user,
                      "--key", s.key("id_rsa"), "--tag", "mixed"])
        try add(dir, ["ed", "--host", "127.0.0.2", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_ed25519"), "--tag", "mixed"])
        let r = try essh(dir, ["exec", "--tag", "mixed", "--known-hosts", knownHosts, "--json", "echo up"])
        #expect(r.status == 0, "\(r.err)")
        let byName = try results(r)
        for name in ["rsa-key", "rsa-host", "ed"] {
            #expect(byName[name]?["status"] as? String == "ok", "\(name): \(byName[name] ?? [:])")
        }
    }

    /// A line longer than the per-server cap (1 MiB) is cut while it is read, with a note; the lines after it
    /// come through whole (the printer used to copy and rescan the growing line on every chunk: quadratic).
    @Test func aHugeLineIsCutAtTheCapAndTheNextLinesFollow() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try add(dir, ["one", "--host", "127.0.0.1", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_ed25519"), "--tag", "big"])
        let r = try essh(dir, ["exec", "--known-hosts", s.knownHosts, "--tag", "big",
                               "head -c 3000000 /dev/zero | tr '\\0' a; echo; echo next"], timeout: 60)
        #expect(r.status == 0, "\(r.err)")
        let expected = "one: " + String(repeating: "a", count: 1 << 20) + "\none: next\n"
        #expect(r.out.count == expected.count && r.out == expected)
        #expect(r.err.contains("one: essh: a line longer than 1 MiB was cut (\(3_000_000 - (1 << 20)) bytes dropped)"),
                "\(r.err.prefix(300))")
    }

    /// Under `ulimit -v` a run of many servers lowers its parallelism and says so (it used to crash: glibc's
    /// per-thread malloc arenas and Foundation's thread start); with no room at all it says what to do, exit 75.
    @Test func anAddressSpaceLimitLowersTheParallelismInsteadOfCrashing() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        var config = ""
        for i in 0..<120 {
            config += "Host m\(i)\n  HostName 127.0.0.\(i % 3 + 1)\n  Port \(s.port)\n  User \(s.user)\n"
                + "  IdentityFile \(s.key("id_ed25519"))\n"
        }
        try config.write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let imported = try essh(dir, ["servers", "import-ssh-config", dir.file("config")])
        #expect(imported.status == 0, "\(imported.err)")
        for (limit, status) in [(150_000, Int32(0)), (120_000, 75)] {
            let script = "ulimit -v \(limit); exec \"$0\" exec --all --known-hosts \"$1\" true"
            let r = try Binary.run("/bin/bash", ["-c", script, Binary.essh, s.knownHosts],
                                   environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: 120)
            #expect(r.status == status, "ulimit -v \(limit): \(r.err.suffix(400))")
            #expect(!r.err.contains("crashed") && !r.err.contains("Fatal error"))
            if status == 0 {
                #expect(r.err.contains("the address-space limit (ulimit -v) leaves room for"))
                #expect(r.err.contains("120 servers: 120 ok"))
            } else {
                #expect(r.err.contains("Raise the limit"))
            }
        }
    }

    @Test func everyStatusAndExitStatusInJSON() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let full = try LoopbackListener(.backlogFull)
        defer { full.close() }
        try fleet(s, dir, dropped: full.port)
        try add(dir, ["stranger", "--host", "127.0.0.2", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_unauthorized")])
        // web2 fails with 3, web3 outlives its time; the rest cannot be reached.
        let command = #"set -- $SSH_CONNECTION; case $3 in 127.0.0.2) echo two; exit 3;; 127.0.0.3) sleep 30;; *) printf 'one\377\n';; esac"#
        let r = try essh(dir, ["exec", "--all", "--json", "--timeout", "3", "--known-hosts", s.knownHosts, "--",
                               command])
        #expect(r.status == 1, "\(r.err)")
        let byName = try results(r)
        #expect(byName.count == 6)
        for (_, item) in byName {
            #expect(Set(item.keys) == ["name", "status", "exit_status", "duration_ms", "stdout", "stderr", "error"])
        }
        #expect(byName["web1"]?["status"] as? String == "ok" && byName["web1"]?["exit_status"] as? Int == 0)
        #expect(byName["web1"]?["stdout"] as? String == "one\u{FFFD}\n" && byName["web1"]?["error"] is NSNull)
        #expect(byName["web2"]?["status"] as? String == "failed" && byName["web2"]?["exit_status"] as? Int == 3)
        #expect(byName["web2"]?["stdout"] as? String == "two\n")
        #expect(byName["web3"]?["status"] as? String == "timed-out" && byName["web3"]?["exit_status"] is NSNull)
        #expect(byName["closed"]?["status"] as? String == "refused")
        #expect((byName["closed"]?["error"] as? String)?.contains("refused the connection") == true)
        #expect(byName["dropped"]?["status"] as? String == "timed-out")
        #expect(byName["stranger"]?["status"] as? String == "auth-failed")
        #expect((byName["stranger"]?["error"] as? String)?.contains("Permission denied") == true)
        #expect((byName["web1"]?["duration_ms"] as? Int ?? -1) >= 0)
        #expect(r.err.contains("6 servers: 1 ok, 1 failed, 2 timed-out, 1 refused, 1 auth-failed in "))
    }

    /// Each way of failing to connect or log in has its own status in the JSON, the summary and the grouped text;
    /// all of these were "unreachable".
    @Test func connectAndLoginFailuresHaveTheirOwnStatuses() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        // A key the server does not accept.
        try add(dir, ["stranger", "--host", "127.0.0.2", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_unauthorized")])
        // known_hosts holds this server's key as [127.0.0.1]:port, not as localhost.
        try add(dir, ["newname", "--host", "localhost", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_ed25519")])
        try add(dir, ["nokey", "--host", "127.0.0.3", "--port", String(s.port), "--user", s.user,
                      "--key", dir.file("no-such-key")])
        try add(dir, ["closed", "--host", "127.0.0.1", "--port", String(try LoopbackListener.closedPort()),
                      "--user", s.user, "--key", s.key("id_ed25519")])
        try add(dir, ["nxdomain", "--host", "no-such-host.invalid", "--user", s.user, "--key", s.key("id_ed25519")])
        let r = try essh(dir, ["exec", "--all", "--json", "--host-key-policy", "strict", "--known-hosts",
                               s.knownHosts, "--", "true"])
        #expect(r.status == 1, "\(r.err)")
        let byName = try results(r)
        let statuses = byName.mapValues { $0["status"] as? String ?? "" }
        #expect(statuses == ["stranger": "auth-failed", "newname": "host-key-unknown", "nokey": "config-error",
                             "closed": "refused", "nxdomain": "dns-error"], "\(r.out)")
        #expect((byName["stranger"]?["error"] as? String)?.contains("Permission denied") == true)
        let unknown = byName["newname"]?["error"] as? String ?? ""
        #expect(unknown.contains("The same key is already known as [127.0.0.1]:\(s.port), [127.0.0.2]:\(s.port), "
                                 + "[127.0.0.3]:\(s.port) and "), "\(unknown)")
        #expect(unknown.contains(" more (in \(s.knownHosts))."), "\(unknown)")
        #expect((byName["nokey"]?["error"] as? String)?.contains(dir.file("no-such-key")) == true)
        #expect(r.err.contains("5 servers: 1 dns-error, 1 refused, 1 host-key-unknown, 1 auth-failed, "
                               + "1 config-error in "), "\(r.err)")
        let grouped = try essh(dir, ["exec", "--group", "--known-hosts", s.knownHosts, "newname,stranger", "true"])
        #expect(grouped.out.contains("== newname · host-key-unknown\n") && grouped.out.contains("== stranger · auth-failed\n"),
                "\(grouped.out)")
    }

    @Test func groupedOutputShowsIdenticalOutputOnceWithItsServers() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let r = try essh(dir, ["exec", "--group", "--known-hosts", s.knownHosts, "web1,web2,web3,closed", "uname -s"])
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "== web[1-3] (3 servers) · ok (exit 0)")
        #expect(lines[1] == "Linux")
        #expect(lines[2] == "== closed · refused")
        #expect(lines[3].hasPrefix("essh: 127.0.0.1 refused the connection"))
    }

    @Test func aDeadServerDoesNotHoldUpTheOthersLines() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let full = try LoopbackListener(.backlogFull)
        defer { full.close() }
        try fleet(s, dir, dropped: full.port)
        // Both streams into one file keep the order in which essh wrote them.
        let script = "\"$0\" exec dropped,web1,web2 --timeout 2 --known-hosts \"$1\" -- echo here 2>&1"
        let r = try Spawn.run("/bin/sh", ["-c", script, Binary.essh, s.knownHosts],
                              environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
        let lines = r.out.split(separator: "\n").map(String.init)
        let dropped = try #require(lines.firstIndex { $0.hasPrefix("dropped: essh: No result within 2 s") })
        let web = lines.indices.filter { lines[$0].hasSuffix(": here") }
        #expect(web.count == 2 && web.allSatisfy { $0 < dropped }, "\(lines)")
        #expect(r.status == 1)
    }

    @Test func aConnectTimeoutIsReportedAsSuchNotAsTheFleetTimeout() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let full = try LoopbackListener(.backlogFull)
        defer { full.close() }
        // The listener never answers: --connect-timeout (1 s) ends the attempt long before the fleet's 30 s.
        let one = try essh(dir, ["exec", "--json", "--connect-timeout", "1", "--timeout", "30", "--known-hosts",
                                 dir.file("known_hosts"), "127.0.0.1:\(full.port)", "--", "true"])
        let item = try results(one)["127.0.0.1:\(full.port)"]
        #expect(item?["status"] as? String == "timed-out", "\(one.out) \(one.err)")
        let error = item?["error"] as? String ?? ""
        #expect(!error.contains("No result within 30 s") && !error.isEmpty, "\(error)")
    }

    @Test func ctrlCKeepsWhatFinishedAndExits130() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        // web1 answers at once; web2 and web3 sleep until the interrupt, which comes a second after web1's line is out.
        let script = """
            "$0" exec --tag web --known-hosts "$1" -- \
              'set -- $SSH_CONNECTION; case $3 in 127.0.0.1) echo quick;; *) sleep 30;; esac' >"$2" 2>"$2.err" &
            pid=$!
            for i in $(seq 1 400); do grep -q 'web1: quick' "$2" && break; sleep 0.05; done
            # The line is out before web1's exit status and close arrive: give them a moment on a loaded machine.
            sleep 1
            kill -INT $pid
            wait $pid
            echo "status $?"
            """
        let out = dir.file("out")
        let r = try Spawn.run("/bin/sh", ["-c", script, Binary.essh, s.knownHosts, out],
                              environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: 25)
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        #expect(r.out.contains("status 130"), "\(r.out) \(r.err) \(stderr)")
        #expect(stdout == "web1: quick\n")
        #expect(stderr.contains("web2: essh: Cancelled.") && stderr.contains("web3: essh: Cancelled."))
        #expect(stderr.contains("3 servers: 1 ok, 2 cancelled in "))
    }

    @Test func badFleetInputSaysWhatToDo() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let noCommand = try essh(dir, ["exec", "--all"])
        #expect(noCommand.status != 0 && noCommand.err.contains("Give the command to run after --"))
        let noTag = try essh(dir, ["exec", "--tag", "nope", "--", "true"])
        #expect(noTag.status != 0 && noTag.err.contains("No saved server has the tag 'nope'"))
        let both = try essh(dir, ["exec", "--all", "web1", "--", "true"])
        #expect(both.status != 0 && both.err.contains("--all, --tag and --hosts-file pick the servers themselves"))
        let parallel = try essh(dir, ["exec", "--parallel", "0", "--all", "--", "true"])
        #expect(parallel.status != 0 && parallel.err.contains("--parallel 0"))
    }

    @Test func singleDestinationExecIsUnchanged() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let r = try essh(dir, ["exec", "--known-hosts", s.knownHosts, "web2", "echo", "-n", "--all"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "--all")
    }

    @Test func aFinishedServerGivesBackItsDescriptorsSoManyServersFitALowLimit() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        // 400 closed ports under 256 descriptors, 64 at a time: each finished server must close its cancellation
        // pipe at once, not when its 60 s would have ended, or the later ones cannot get a socket.
        let port = try LoopbackListener.closedPort()
        let names = (0..<400).map { "127.0.\(1 + $0 / 200).\(1 + $0 % 200):\(port)" }.joined(separator: ",")
        let script = "ulimit -n 256 && exec \"$0\" exec --json --parallel 64 --known-hosts \"$1\" \"$2\" -- true"
        let r = try Spawn.run("/bin/sh", ["-c", script, Binary.essh, dir.file("known_hosts"), names],
                              environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path], timeout: 50)
        #expect(r.status == 1, "\(r.err)")
        let byName = try results(r)
        #expect(byName.count == 400)
        let refused = byName.values.filter { ($0["error"] as? String)?.contains("refused the connection") == true }
        #expect(refused.count == 400, "\(byName.values.compactMap { $0["error"] as? String }.filter { !$0.contains("refused") }.prefix(3))")
        #expect(r.err.contains("400 servers: 400 refused in "))
    }

    @Test func onePasswordFileServesEveryPasswordServerAndNothingIsAsked() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        for i in 1...2 {
            try add(dir, ["pw\(i)", "--host", "127.0.0.\(i)", "--port", String(s.port), "--user", s.user,
                          "--auth", "password"])
        }
        let file = dir.file("pw")
        FileManager.default.createFile(atPath: file, contents: Data((s.password + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        let ok = try essh(dir, ["exec", "--all", "--known-hosts", s.knownHosts, "--password-file", file, "--", "id -un"])
        #expect(ok.status == 0, "\(ok.err)")
        #expect(ok.out.split(separator: "\n").sorted() == ["pw1: \(s.user)", "pw2: \(s.user)"])
        // Without it (and no terminal to ask once on) each server says why, and the run does not stop to ask.
        let none = try essh(dir, ["exec", "--all", "--known-hosts", s.knownHosts, "--", "id -un"])
        #expect(none.status == 1)
        #expect(none.err.contains("pw1: essh: ") && none.err.contains("2 servers: 2 auth-failed"))
    }

    /// Host keys are checked before the password is asked: when no server that logs in with a password is left
    /// (here both keys are unknown), nothing is asked and each says why.
    @Test func noPasswordIsAskedWhenNoPasswordServerIsLeftAfterTheHostKeyCheck() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let essh = try EsshInTmux(servers: [.init("pw1", host: "127.0.0.1", login: .password),
                                            .init("pw2", host: "127.0.0.2", login: .password)],
                                  arguments: "exec --all -- echo ran", knownHosts: .empty, in: dir, width: 120)
        defer { essh.stop() }
        let screen = try essh.waitForExit(1, timeout: 30)
        #expect(!screen.contains { $0.contains("Password for") }, "\(screen)")
        #expect(screen.contains { $0.contains("2 servers: 2 host-key-unknown in ") }, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("pw1: essh: The host key of [127.0.0.1]:\(s.port) is not known") },
                "\(screen)")
    }

    /// With one password server trusted and one not, the password is asked once, for the one left, and used there;
    /// the other keeps what the check found.
    @Test func thePasswordIsAskedOnlyForTheServersLeftAfterTheCheck() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        // known_hosts trusts 127.0.0.1's key only under that address; "localhost" is unknown.
        let essh = try EsshInTmux(servers: [.init("known", host: "127.0.0.1", login: .password),
                                            .init("newname", host: "localhost", login: .password)],
                                  arguments: "exec --all --json -- echo ran", in: dir, width: 160)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "Password for the servers that log in with a password:")
        try tmux.type(s.password)
        try tmux.press("Enter")
        let screen = try essh.waitForExit(1, timeout: 30)
        let text = screen.joined()
        #expect(text.contains(#""name":"known","status":"ok""#), "\(screen)")
        #expect(text.contains(#""name":"newname","status":"host-key-unknown""#), "\(screen)")
        #expect(!text.contains(s.password))
    }

    @Test func thePasswordGoesOnlyToPasswordServersAndNamedDestinationsNeverToKeyServers() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        // keyonly's key is refused; the sshd would take the password, but keyonly is saved as a key server.
        try add(dir, ["keyonly", "--host", "127.0.0.1", "--port", String(s.port), "--user", s.user,
                      "--key", s.key("id_unauthorized")])
        try add(dir, ["pwsrv", "--host", "127.0.0.2", "--port", String(s.port), "--user", s.user,
                      "--auth", "password"])
        let file = dir.file("pw")
        FileManager.default.createFile(atPath: file, contents: Data((s.password + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        // A destination named on the command line (not saved, no key in this HOME) gets the --password-file one.
        let adHoc = "\(s.user)@127.0.0.3:\(s.port)"
        let r = try essh(dir, ["exec", "--json", "--known-hosts", s.knownHosts, "--password-file", file,
                               "keyonly,pwsrv,\(adHoc)", "--", "echo logged-in"])
        #expect(r.status == 1, "\(r.err)")
        let byName = try results(r)
        #expect(byName["pwsrv"]?["status"] as? String == "ok" && byName["pwsrv"]?["stdout"] as? String == "logged-in\n")
        #expect(byName[adHoc]?["status"] as? String == "ok", "\(byName[adHoc] ?? [:])")
        #expect(byName["keyonly"]?["status"] as? String == "auth-failed")
        let error = byName["keyonly"]?["error"] as? String ?? ""
        #expect(error.contains("Permission denied") && !error.contains("password (") && !error.contains("keyboard"),
                "\(error)")
    }

    @Test func onATerminalRemoteEscapeSequencesAreShownNotObeyedAndIntoAPipeTheyPassAsTheyCame() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let command = #"printf 'a\033]0;pwned\007b\n'"#
        let session = try EsshInTmux(arguments: "exec web1,web2 --known-hosts \(s.knownHosts) -- \"\(command)\"",
                                     in: dir, width: 80, height: 10)
        defer { session.stop() }
        let tmux = session.tmux
        let screen = try tmux.waitFor(text: "2 servers: 2 ok")
        #expect(screen.contains("web1: a␛]0;pwned␇b") && screen.contains("web2: a␛]0;pwned␇b"))
        #expect(try tmux.display("#{pane_title}") != "pwned")
        let piped = try essh(dir, ["exec", "web1,web2", "--known-hosts", s.knownHosts, "--", command])
        #expect(piped.stdout.contains(Data("web1: a\u{1B}]0;pwned\u{07}b\n".utf8)))
    }

    @Test func onATerminalAnErrorLineIsShownNotObeyed() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        // The error line holds text essh did not write itself (here the refused login names the user, escape
        // sequence and all; a server's own words, such as the login methods it offers, come the same way).
        let odd = "$(printf 'x\\033]0;pwned\\007y')@127.0.0.1:\(s.port)"
        let session = try EsshInTmux(arguments: "exec \"web1,\(odd)\" --known-hosts \(s.knownHosts) -- true",
                                     homeInFolder: true, in: dir, width: 100, height: 10)
        defer { session.stop() }
        let tmux = session.tmux
        // A destination whose user holds control characters is refused before anything runs (make fuzz found it
        // was taken as it was); the refusal quotes it as text, on the terminal as anywhere.
        let screen = try tmux.waitFor(text: "is not a destination")
        #expect(screen.joined().contains("pwned"), "\(screen)")
        #expect(try tmux.display("#{pane_title}") != "pwned")
        _ = try session.waitForExit(64)
    }

    @Test func mailSendsTheWholeReportAfterTheRun() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        try fleet(s, dir)
        let marker = "fleetcli-\(UUID().uuidString.prefix(8))"
        let host = try Spawn.run("/bin/hostname", []).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let r = try essh(dir, ["exec", "--tag", "web", "--group", "--mail", "essh-test@\(host)", "--subject", marker,
                               "--known-hosts", s.knownHosts, "--", "echo same"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("== web[1-3] (3 servers) · ok (exit 0)\nsame\n"))
        let mail = try MailInspector.parse(try MailInspector.delivered(to: "essh-test", marker: marker))
        let text = try #require(mail.parts.first?.text)
        #expect(text.hasPrefix("Command: echo same\n3 servers: 3 ok in "))
        #expect(text.hasSuffix("\n== web[1-3] (3 servers) · ok (exit 0)\nsame\n"))
    }
}
