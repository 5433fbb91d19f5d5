import Foundation
import Testing
import TestSupport

/// The interface's small breakages (issue 14 §4), in the real `essh` in tmux: a question over the spinner, Esc while
/// connecting, the help at 40x10, TERM=dumb, a fleet run's output as it comes.
@Suite("essh TUI: small breakages in tmux", .serialized)
struct TUISmallBreakagesTests {
    /// At 120 columns the spinner's line is wider than the password box; it used to show on both sides of it.
    @Test func thePasswordBoxIsNotDrawnThroughByTheSpinner() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box(login: .password)], width: 120, height: 35)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        let screen = try tmux.waitFor(text: "Password for \(servers.user)@")
        let box = try #require(screen.firstIndex { $0.contains("┌ Password") })
        let boxRows = screen[box...].prefix { !$0.contains("└") }
        #expect(!boxRows.contains { $0.contains("Conne") }, "\(screen.joined(separator: "\n"))")
        #expect(screen.filter { $0.contains("Connecting to") }.count == 1)
        #expect(screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("Logging in") == true)
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try essh.endSession()
        try essh.quit()
    }

    /// A server that accepts and never speaks keeps essh connecting; Esc goes straight back to the list, and the
    /// connection's late "cancelled" opens no dialog.
    @Test func escWhileConnectingGoesBackWithoutADialog() throws {
        let silent = try LoopbackListener(.silent)
        defer { silent.close() }
        let essh = try EsshInTmux(servers: [EsshInTmux.Server("mute", host: "127.0.0.1", port: silent.port)])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "mute")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Esc: cancel")
        try tmux.press("Escape")
        try tmux.waitFor(text: "Stopped connecting to")
        // What the given-up connection still sends arrives within the cancel's reach (a poll): give it time.
        Thread.sleep(forTimeInterval: 2)
        let screen = try tmux.screen()
        #expect(!screen.contains { $0.contains("Could not connect") || $0.contains("Cancelled") },
                "\(screen.joined(separator: "\n"))")
        #expect(screen[0].contains("eSSH — Servers"))
        try essh.quit()
    }

    /// At 40x10 the help scrolls (↓, j, End) to its last line, and no description is cut short.
    @Test func theHelpScrollsAt40x10() throws {
        let essh = try EsshInTmux(knownHosts: .empty, width: 40, height: 10)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "eSSH")
        try tmux.press("?")
        let first = try tmux.waitFor(text: "Keys (Esc closes)")
        #expect(first.contains { $0.contains("Connect to the selected") })
        try tmux.press("Down", "j")
        try tmux.waitFor("scrolled by two") { !$0.contains { $0.contains("Connect to the selected") } }
        try tmux.press("End")
        let last = try tmux.waitFor(text: "Last line")
        #expect(!last.contains { $0.contains("Connect to the selected") })
        #expect(!last.joined().contains("…"))
        try tmux.press("g")
        try tmux.waitFor(text: "Connect to the selected")
        try tmux.press("Escape")
        try essh.quit()
    }

    /// A terminal that cannot move the cursor gets one sentence and exit status 1, not a screen of garbage.
    @Test func termDumbIsRefusedWithASentence() throws {
        let essh = try EsshInTmux(knownHosts: .empty, environment: ["TERM": "dumb"], width: 100)
        defer { essh.stop() }
        try essh.waitForExit(1)
        let screen = try essh.tmux.waitFor(text: "TTY-SANE").joined(separator: "\n")
        #expect(screen.contains("essh: The terminal type TERM=dumb cannot move the cursor"), "\(screen)")
        #expect(!screen.contains("Connect") && !screen.contains("eSSH — Servers"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: essh.db), "nothing is created")
    }

    /// A fleet run shows each server's output as it comes, its clock moving, as `essh exec` prints lines as they
    /// come; Enter on a running server follows its output.
    @Test func aFleetRunShowsOutputWhileItRuns() throws {
        let essh = try EsshInTmux(servers: [EsshInTmux.Server("alpha", host: "127.0.0.2"),
                                            EsshInTmux.Server("beta", host: "127.0.0.3")], width: 80, height: 24)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "beta")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 2 servers")
        try tmux.type("echo first-line; sleep 4; echo second-line")
        try tmux.press("Enter")
        let live = try tmux.waitFor("first lines while running") { lines in
            lines.filter { $0.contains("running") && $0.contains("first-line") }.count == 2
        }
        #expect(!live.dropFirst().contains { $0.contains("second-line") }, "only the header names it yet")
        // The header keeps its count and its clock at 80 columns, and the clock moves.
        let clock = { (screen: [String]) in screen[0].components(separatedBy: "done · ").last ?? "" }
        let before = clock(live)
        #expect(live[0].contains("0/2 done · "), "\(live[0])")
        try tmux.waitFor("the clock to move") { clock($0) != before && $0[0].contains("0/2 done") }
        try tmux.press("Enter")
        try tmux.waitFor("alpha's output, open while it runs") { lines in
            lines.contains { $0.hasPrefix("first-line") } && lines.contains { $0.contains("alpha: running") }
        }
        try tmux.waitFor("the rest as it comes") { lines in
            lines.contains { $0.hasPrefix("second-line") } && lines.contains { $0.contains("alpha: ok (exit 0)") }
        }
        try tmux.press("Escape")
        try tmux.waitFor(text: "2 servers: 2 ok in ")
        try tmux.press("Escape")
        // The run logged in to both: their Connected column says so at once.
        try tmux.waitFor("Connected updated") { lines in
            lines.filter { ($0.contains("alpha") || $0.contains("beta")) && $0.contains("just now") }.count == 2
        }
        try essh.quit()
    }
}
