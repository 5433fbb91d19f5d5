import Foundation
import Testing
import TestSupport

/// The session for a day's work (issue 14 §1), the real `essh` in tmux against the real sshd: a password asked on
/// the terminal, progress lines, a 300-character line, Ctrl-C, Ctrl-Z and `fg`, Ctrl-R, Alt-digits, and `r` after
/// the server's side of the connection was killed.
@Suite("essh TUI: a session for daily work")
struct TUISessionDailyTests {
    /// The screen's lines without the padding tmux keeps.
    private func trimmed(_ screen: [String]) -> [String] {
        screen.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Waits until `count` lines are exactly `line`.
    @discardableResult
    private func waitForLines(_ tmux: TmuxSession, _ line: String, count: Int = 1) throws -> [String] {
        try tmux.waitFor("\(count) line(s) “\(line)”") { screen in
            trimmed(screen).filter { $0 == line }.count >= count
        }
    }

    @Test func sudoAsksItsPasswordOnTheTerminalAndTheSessionGetsItsStatus() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        let first = try tmux.screen()
        #expect(first.contains { $0.contains("!COMMAND gives any command a terminal") }, "the first prompt says how")
        if s.sudo {
            try tmux.enter("sudo -k; sudo true")
            try tmux.waitFor(text: "password for \(s.user)")
            #expect(try tmux.display("#{alternate_on}") == "0", "the terminal is sudo's, not the interface's")
            try tmux.type(s.password)
            try tmux.press("Enter")
            let after = try tmux.waitFor(text: "Press Enter to return to eSSH")
            #expect(after.contains { $0.contains("[exit 0] Press Enter") })
            try tmux.press("Enter")
            let back = try tmux.waitFor(text: "· on a terminal]")
            #expect(back.contains { $0.hasPrefix("[exit 0 · ") && $0.contains("on a terminal]") })
            #expect(back.contains { $0.hasPrefix("$ sudo -k; sudo true") })
        }
        // Any command, with the prefix: it reads the terminal, starts in the session shell's folder.
        try tmux.enter("cd /tmp")
        try tmux.waitFor(text: "[exit 0")
        try tmux.enter("!read -p 'secret? ' v </dev/tty; echo \"got $v in $(pwd)\"; exit 4")
        try tmux.waitFor(text: "secret?")
        try tmux.type("abc")
        try tmux.press("Enter")
        try tmux.waitFor(text: "got abc in /tmp")
        try tmux.waitFor(text: "[exit 4] Press Enter to return to eSSH")
        try tmux.press("Enter")
        try tmux.waitFor("the result line of the prefixed command") {
            $0.contains { $0.hasPrefix("[exit 4 · ") && $0.contains("on a terminal]") }
        }
        // A full-screen program puts the screen back itself: no question afterwards.
        try tmux.enter("less /etc/hostname")
        try tmux.waitFor("less on the alternate screen") { _ in (try? tmux.display("#{alternate_on}")) == "1" }
        try tmux.press("q")
        try tmux.waitFor("the result line of less") {
            $0.contains { $0.hasPrefix("[exit 0 · ") && $0.contains("on a terminal]") }
                && !$0.contains { $0.contains("Press Enter to return") }
        }
        try essh.endSession()
    }

    @Test func progressLinesUpdateOneLine() throws {
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("printf 'a\\rb\\n'")
        try waitForLines(tmux, "b")
        try tmux.enter("for i in 1 2 3 4; do printf '\\r%s%% done' $((i*25)); sleep 0.3; done; printf '\\r\\n'; "
                       + "echo finished")
        let screen = trimmed(try waitForLines(tmux, "finished"))
        #expect(screen.contains("100% done"))
        #expect(!screen.contains { $0.hasSuffix("25% done") || $0.hasPrefix(" 50%") || $0 == "a" },
                "no line per update")
        try essh.endSession()
    }

    @Test func a300CharacterLineIsReadableToItsEnd() throws {
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("printf 'L%.0s' $(seq 1 300); echo")
        let screen = trimmed(try waitForLines(tmux, "LLL"))
        let rows = screen.filter { !$0.isEmpty && $0.allSatisfy { $0 == "L" || $0 == "↩" } }
        #expect(rows.filter { $0.hasSuffix("↩") }.count == 3, "99 columns a row and a marker: \(rows)")
        #expect(rows.joined().filter { $0 == "L" }.count == 300, "every character is on the screen")
        try essh.endSession()
    }

    /// `essh config set session.wrap off`: the same line is one row, `›` where it goes on, and → on the empty
    /// command line brings its end into view with `‹` where text is hidden on the left.
    @Test func withSessionWrapOffALongLineScrollsSideways() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let set = try Binary.runEssh(["config", "set", "session.wrap", "off"],
                                     environment: ["ESSH_DB": dir.file("essh.db")])
        try #require(set.status == 0, "\(set.err)")
        let essh = try EsshInTmux(servers: [.box()], in: dir)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.enter("printf 'R%.0s' $(seq 1 296); echo END")
        let first = trimmed(try tmux.waitFor("the line clipped with a marker") {
            $0.contains { $0.hasPrefix("RRRR") && $0.hasSuffix("R›") }
        })
        let rows = first.filter { $0.hasPrefix("RRRR") }
        #expect(rows.count == 1 && !rows[0].contains("END"), "one row, not wrapped, its end hidden: \(first)")
        for _ in 0..<4 { try tmux.press("Right") }
        let scrolled = trimmed(try tmux.waitFor("the line's end in view") {
            $0.contains { $0.hasPrefix("‹R") && $0.hasSuffix("REND") }
        })
        #expect(scrolled.filter { $0.contains("RRRR") }.count == 1)
        for _ in 0..<4 { try tmux.press("Left") }
        try tmux.waitFor("back at the line's start") { $0.contains { $0.hasPrefix("RRRR") && $0.hasSuffix("R›") } }
        try essh.endSession()
    }

    @Test func ctrlCStopsALoopAndTheSessionGoesOn() throws {
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("while :; do :; done")
        try tmux.waitFor(text: "Esc stops it")
        try tmux.press("C-c")
        try tmux.waitFor(text: "[stopped (^C)", timeout: 10)
        try tmux.enter("echo alive-after")
        try waitForLines(tmux, "alive-after")
        try essh.endSession()
    }

    @Test func ctrlZSuspendsToTheShellAndFgBringsTheSessionBackIntact() throws {
        let essh = try EsshInTmux.inSession(jobControl: true)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("echo before-stop")
        try waitForLines(tmux, "before-stop")
        try tmux.press("C-z")
        try tmux.waitFor(text: "Stopped")
        #expect(try tmux.display("#{alternate_on}") == "0", "the terminal is the shell's again")
        try tmux.waitFor("the shell's prompt") { $0.last { !$0.isEmpty }?.hasPrefix("$") == true }
        try tmux.enter("fg")
        // Read once the whole screen is back (a frame can reach tmux in more than one write).
        try tmux.waitFor("the session redrawn: header, output and key bar") { screen in
            screen[0].contains("@127.0.0.1") && trimmed(screen).contains("before-stop")
                && TmuxSession.keyBar(screen)?.hasPrefix("Esc Stop") == true
        }
        #expect(try tmux.display("#{alternate_on}") == "1", "the interface has the screen again")
        try tmux.enter("echo after-fg")
        try waitForLines(tmux, "after-fg")
        try essh.endSession()
        try tmux.press("Enter")
        try tmux.waitFor(text: "eSSH — Servers")
        try tmux.press("q")
        try tmux.waitFor(text: EsshInTmux.exitMarker + "0")
    }

    /// Started by `sh -c` (no job control: its process group is orphaned), a Ctrl-Z is dropped by the system and
    /// eSSH carries on, the session drawn again. (tmux would continue a pane that stopped, so whether the stop was
    /// dropped is `TerminalRestorerStopTests`' question; this one asks that the session goes on.)
    @Test func ctrlZWithoutJobControlLeavesTheSessionRunning() throws {
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("echo before-ctrl-z")
        try waitForLines(tmux, "before-ctrl-z")
        try tmux.press("C-z")
        try tmux.enter("echo after-ctrl-z")
        let screen = try waitForLines(tmux, "after-ctrl-z")
        #expect(trimmed(screen).contains("before-ctrl-z"), "the output stays")
        #expect(!screen.contains { $0.contains(EsshInTmux.exitMarker) }, "essh did not end")
        try essh.endSession()
    }

    @Test func ctrlRFindsAnOlderCommandAndAltDigitsStandInForTheFKeys() throws {
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("echo older-one")
        try waitForLines(tmux, "older-one")
        try tmux.enter("echo newer-two")
        try waitForLines(tmux, "newer-two")
        try tmux.press("C-r")
        try tmux.type("older")
        try tmux.waitFor(text: "→ echo older-one")
        try tmux.press("Enter")
        try waitForLines(tmux, "older-one", count: 2)
        // Alt-2: the interfaces (F2); Alt-5: raw, `ip -j addr` indented; Alt-1: the help.
        try tmux.press("M-2")
        try tmux.waitFor(text: "table (F5 raw)")
        try tmux.press("M-5")
        try tmux.waitFor(text: #"        "preferred_life_time": "#)
        try tmux.press("M-1")
        try tmux.waitFor(text: "F2/Alt-2")
        try tmux.press("Escape")
        try essh.endSession()
    }

    @Test func afterTheServersSideIsKilledTheSessionSaysSoAndRReconnects() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("echo before-drop")
        try waitForLines(tmux, "before-drop")
        let pane = Int32(try tmux.display("#{pane_pid}")) ?? -1
        let listener = try #require(SSHDConnection.listenerPid(stateDir: s.stateDir))
        let sshd = try #require(SSHDConnection.wait(clientPid: pane, port: s.port, listenerPid: listener))
        let killed = Date()
        sshd.signal(SIGKILL)
        try tmux.waitFor(text: "[connection lost", timeout: 10)
        #expect(Date().timeIntervalSince(killed) < 5, "said at once")
        try tmux.waitFor("the header and status line saying so") { screen in
            screen[0].contains("disconnected") && screen.contains { $0.contains("r reconnects") }
        }
        try tmux.press("r")
        let back = try tmux.waitFor(text: "[reconnected to", timeout: 15)
        #expect(trimmed(back).contains("before-drop"), "the output stays")
        try tmux.enter("echo after-reconnect")
        try waitForLines(tmux, "after-reconnect")
        try essh.endSession()
    }
}
