import Foundation
import Testing
import TestSupport

/// `essh exec` giving up on a command — `--timeout`, Ctrl-C, a fleet's Ctrl-C or time limit — leaves nothing running
/// on the real sshd: the command gets INT, then TERM, then KILL, and essh exits only after that. Each test's command
/// carries its own marker (`exec -a MARKER sleep 300`), looked for with `pgrep -u essh-test -f MARKER`.
@Suite struct ExecSignalTests {
    func connection(_ s: TestServers) -> [String] {
        ["--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "-p", String(s.port)]
    }

    /// A command whose shell and child ignore INT and TERM: only KILL, a second after INT, ends it.
    func stubborn(_ marker: String) -> String {
        "trap '' INT TERM; (\(RemoteProcesses.sleeper(marker)))"
    }

    @Test func aTimeoutStopsTheRemoteCommand() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("cli-timeout")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let r = try Binary.runEssh(["exec"] + connection(s) + ["--timeout", "1", "\(s.user)@127.0.0.1",
                                                               RemoteProcesses.sleeper(marker)], timeout: 20)
        #expect(r.status == 124, "\(r.err)")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }

    @Test func aTimeoutStopsACommandIgnoringINTAndTERM() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("cli-stubborn")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let started = Date()
        let r = try Binary.runEssh(["exec", "-v"] + connection(s) + ["--timeout", "1", "\(s.user)@127.0.0.1",
                                                                     stubborn(marker)], timeout: 20)
        let took = Date().timeIntervalSince(started)
        #expect(r.status == 124, "\(r.err)")
        #expect(r.err.contains("the remote command ended after INT, TERM, KILL"), "\(r.err)")
        #expect(took < 6, "1 s of command, at most 1.5 s of stopping; took \(took) s")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }

    /// Waits until `processes` processes carrying `marker` run on the server, types Ctrl-C in essh's terminal and
    /// waits for essh to exit with 130; returns the screen and the seconds from the key to the exit.
    func interrupt(_ essh: EsshInTmux, marker: String, user: String, processes: Int) throws -> ([String], Double) {
        #expect(RemoteProcesses.waitUntilRunning(marker, user: user, count: processes), "the command did not start")
        let pressed = Date()
        try essh.tmux.press("C-c")
        let screen = try essh.waitForExit(130, timeout: 10)
        return (screen, Date().timeIntervalSince(pressed))
    }

    /// Ctrl-C typed in a real terminal: essh waits for the escalation before it exits, or the KILL that ends this
    /// command would never be sent.
    @Test func ctrlCStopsTheRemoteCommandBeforeEsshExits() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("cli-ctrlc")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let arguments = (["exec"] + connection(s) + ["\(s.user)@127.0.0.1"]).joined(separator: " ")
            + " \"\(stubborn(marker))\""
        let essh = try EsshInTmux(arguments: arguments)
        defer { essh.stop() }
        // The shell and its sleep.
        let (_, took) = try interrupt(essh, marker: marker, user: s.user, processes: 2)
        #expect(took < 3, "took \(took) s")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }

    /// Ctrl-C during a fleet run: every server's command is stopped (here too only by KILL) before essh exits.
    @Test func ctrlCStopsTheCommandOnEveryServerOfAFleet() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("fleet-ctrlc")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let essh = try EsshInTmux(
            servers: [.init("web1", host: "127.0.0.1", tags: ["web"]), .init("web2", host: "127.0.0.2", tags: ["web"])],
            arguments: "exec --tag web --known-hosts \(s.knownHosts) -- \"\(stubborn(marker))\"")
        defer { essh.stop() }
        // A shell and its sleep per server.
        let (screen, _) = try interrupt(essh, marker: marker, user: s.user, processes: 4)
        #expect(screen.joined(separator: "\n").contains("2 cancelled"), "\(screen.joined(separator: "\n"))")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }

    @Test func aFleetTimeoutStopsTheCommandOnEveryServer() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("fleet-timeout")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let target = { (host: String) in "\(s.user)@\(host):\(s.port)" }
        let r = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "--timeout", "2",
                                    "\(target("127.0.0.1")),\(target("127.0.0.2"))", "--",
                                    RemoteProcesses.sleeper(marker)], timeout: 30)
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains("2 timed-out"), "\(r.err)")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
    }
}
