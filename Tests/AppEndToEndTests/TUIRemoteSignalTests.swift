import Foundation
import Testing
import TestSupport

/// Esc in the real interface (tmux) stops the command on the real sshd too — the session's command and a fleet run's
/// — while the interface stays responsive. Each test's command carries its own marker (`exec -a MARKER sleep 300`),
/// looked for with `pgrep -u essh-test -f MARKER`.
@Suite("essh TUI stops remote commands")
struct TUIRemoteSignalTests {
    @Test func escStopsTheCommandOnTheServer() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("tui-esc")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter(RemoteProcesses.sleeper(marker))
        #expect(RemoteProcesses.waitUntilRunning(marker, user: s.user), "the command did not start")
        let pressed = Date()
        try tmux.press("Escape")
        try tmux.waitFor(text: "stopped (Esc)", timeout: 5)
        #expect(Date().timeIntervalSince(pressed) < 3)
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
        try tmux.enter("echo next-$((2+3))")
        try tmux.waitFor(text: "next-5")
        try essh.endSession()
        try essh.quit()
    }

    /// A command ignoring INT and TERM ends only with KILL, a second after Esc; meanwhile the interface takes keys.
    @Test func escStopsACommandIgnoringINTAndTERMAndTheInterfaceAnswersMeanwhile() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("tui-stubborn")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let essh = try EsshInTmux.inSession()
        defer { essh.stop() }
        let tmux = essh.tmux
        // In a subshell: the session's shell lasts, and a `trap` of its own would stay for the next commands.
        try tmux.enter("(trap '' INT TERM; \(RemoteProcesses.sleeper(marker)))")
        #expect(RemoteProcesses.waitUntilRunning(marker, user: s.user), "the command did not start")
        try tmux.press("Escape")
        // Typed while the command is being stopped: the keys are drawn before it has ended.
        try tmux.type("typed-meanwhile")
        let meanwhile = try tmux.waitFor(text: "typed-meanwhile", timeout: 5)
        let stillStopping = meanwhile.contains { $0.contains("running (trap") }
            && !meanwhile.contains { $0.contains("stopped (Esc)") }
        #expect(stillStopping, "the keys waited for the stop: \(meanwhile.joined(separator: "\n"))")
        try tmux.waitFor(text: "stopped (Esc)", timeout: 5)
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
        try essh.endSession()
        try essh.quit()
    }

    @Test func escStopsAFleetRunsCommandsOnTheServers() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("tui-fleet")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let essh = try EsshInTmux(servers: [.init("one", host: "127.0.0.1"), .init("two", host: "127.0.0.2")])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "two")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 2 servers")
        try tmux.type("trap '' INT TERM; (\(RemoteProcesses.sleeper(marker)))")
        try tmux.press("Enter")
        #expect(RemoteProcesses.waitUntilRunning(marker, user: s.user, count: 4), "the commands did not start")
        try tmux.press("Escape")
        try tmux.waitFor(text: "2 servers: 2 cancelled", timeout: 5)
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user), "still running on the server")
        try tmux.press("Escape")
        try essh.quit()
    }
}
