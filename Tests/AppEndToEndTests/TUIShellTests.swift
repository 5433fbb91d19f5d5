import Foundation
import Testing
import TestSupport

/// The interactive shell from the real `essh` TUI in tmux, against the real test sshd: the terminal is handed
/// over, the shell works like ssh, and the interface comes back intact however the shell ends.
@Suite("essh TUI: interactive shell")
struct TUIShellTests {
    /// essh on `box` (saved with `login`), its servers list showing box's latency.
    private static func start(login: EsshInTmux.Server.Login = .key("id_ed25519")) throws -> EsshInTmux {
        let essh = try EsshInTmux(servers: [.box(login: login)])
        do {
            try essh.tmux.waitFor("box with its latency") { $0.contains { $0.contains("box") && $0.contains(" ms") } }
        } catch {
            essh.stop()
            throw error
        }
        return essh
    }

    /// The servers list as the TUI draws it: header, the box row, the key bar on the last row.
    private func expectServersScreen(_ screen: [String], height: Int) {
        #expect(screen[0].contains("eSSH — Servers"))
        #expect(screen.contains { $0.contains("box") && $0.contains("linux") })
        #expect(screen.count >= height && screen[height - 1].hasPrefix("Enter Connect"))
    }

    private func waitForPrompt(_ tmux: TmuxSession, _ s: TestServers) throws {
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
    }

    private func quit(_ essh: EsshInTmux) throws {
        try essh.quit()
        try essh.tmux.waitFor(text: "TTY-SANE")
    }

    @Test func fromTheServersTheShellRunsResizesExitsWithItsStatusAndTheListComesBack() throws {
        let s = try TestServers.require()
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.press("t")
        try waitForPrompt(tmux, s)
        #expect(try tmux.display("#{alternate_on}") == "0", "the shell has the normal screen, as ssh does")
        try RemoteShellScript.typeAndResize(tmux, from: (100, 30), to: (120, 35))
        try tmux.type("exit 3")
        try tmux.press("Enter")
        let summary = try tmux.waitFor(text: "Shell summary")
        #expect(summary.contains { $0.contains("Exit status: 3") })
        let time = #"Time of connection: \d+ seconds?"#
        #expect(summary.contains { $0.range(of: time, options: .regularExpression) != nil })
        #expect(summary.contains { $0.contains("exited with status 3") })
        try tmux.press("Enter")
        // Back on the list, drawn whole at the new size, reloaded with the connection recorded.
        let list = try tmux.waitFor("the servers list with box connected just now") {
            $0.count >= 35 && $0[34].hasPrefix("Enter Connect") && $0.contains { $0.contains("just now") }
        }
        expectServersScreen(list, height: 35)
        try quit(essh)
    }

    @Test func f8InASessionComesBackToTheSessionAfterTildeDotAndEndsItWhenTheServerDies() throws {
        let s = try TestServers.require()
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo before-shell")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 0")
        try tmux.press("F8")
        try waitForPrompt(tmux, s)
        try tmux.type("echo in-the-shell")
        try tmux.press("Enter")
        try tmux.waitFor(text: "in-the-shell")
        try tmux.type("~?")
        try tmux.waitFor(text: "Supported escape sequences")
        try tmux.type("~.")
        let summary = try tmux.waitFor(text: "Shell summary")
        #expect(summary.contains { $0.contains("(~.)") })
        #expect(summary.contains { $0.contains("Time of connection:") })
        #expect(TmuxSession.keyBar(summary)?.hasPrefix("Enter Session") == true)
        try tmux.press("Enter")
        // The same session, its output intact, still working.
        let session = try tmux.waitFor(text: "[shell · Disconnected")
        #expect(session[0].contains("\(s.user)@127.0.0.1:\(s.port)"))
        #expect(session.contains { $0 == "before-shell" || $0.hasPrefix("before-shell ") })
        try tmux.type("echo after-shell")
        try tmux.press("Enter")
        try tmux.waitFor(text: "after-shell")
        // Again, and this time the server's side of the connection dies mid-shell.
        try tmux.press("F8")
        try tmux.waitFor("the second shell's prompt") { $0.last { !$0.isEmpty }?.contains("\(s.user)@") == true }
        let pane = Int32(try tmux.display("#{pane_pid}")) ?? -1
        let listener = try #require(SSHDConnection.listenerPid(stateDir: s.stateDir))
        let sshd = try #require(SSHDConnection.wait(clientPid: pane, port: s.port, listenerPid: listener))
        sshd.signal(SIGKILL)
        let lost = try tmux.waitFor(text: "Shell summary", timeout: 10)
        #expect(lost.joined().contains("was lost."))
        #expect(lost.contains { $0.contains("The session is closed.") })
        try tmux.press("Enter")
        let list = try tmux.waitFor("the servers list") { $0.contains { $0.contains("box") && $0.contains("linux") } }
        expectServersScreen(list, height: 30)
        try quit(essh)
    }

    @Test func aTerminatingSignalMidShellLeavesTheTerminalSane() throws {
        let s = try TestServers.require()
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.press("t")
        try waitForPrompt(tmux, s)
        let pane = Int32(try tmux.display("#{pane_pid}")) ?? -1
        let pid = try #require(SSHDConnection.descendant(of: pane, named: "essh"))
        kill(pid, SIGTERM)
        try essh.waitForExit(143)
        try tmux.waitFor(text: "TTY-SANE")
        #expect(try tmux.display("#{alternate_on}") == "0")
    }

    @Test func aPasswordServerAsksInTheInterfaceThenTheShellOpens() throws {
        let s = try TestServers.require()
        let essh = try Self.start(login: .password)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.press("F8")
        try tmux.waitFor(text: "Password for \(s.user)@")
        try tmux.type(s.password)
        try tmux.press("Enter")
        try waitForPrompt(tmux, s)
        try tmux.type("whoami")
        try tmux.press("Enter")
        try tmux.waitFor("whoami's answer") { $0.contains(s.user) }
        try tmux.press("C-d")
        let summary = try tmux.waitFor(text: "Shell summary")
        #expect(summary.contains { $0.contains("Exit status: 0") })
        try tmux.press("Enter")
        try tmux.waitFor(text: "eSSH — Servers")
        try quit(essh)
    }
}
