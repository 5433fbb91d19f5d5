import Foundation
import Testing
import TestSupport

/// The session screen is a shell that remembers: the real `essh` in tmux against the real sshd.
@Suite("essh TUI: the session's shell", .serialized)
struct TUISessionShellTests {
    /// Lines of the screen that are exactly `text` (output lines, not the `$ command` lines).
    private func count(_ text: String, in screen: [String]) -> Int {
        screen.filter { $0.trimmingCharacters(in: .whitespaces) == text }.count
    }

    @Test func cdPersistsEscKeepsTheShellAndExitGivesAFreshOneWithANotice() throws {
        let servers = try TestServers.require()
        // Wide enough for the header to keep the shell's word beside the key's full path (a worktree's path is long).
        let essh = try EsshInTmux(servers: [.box()], width: 140)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor("box with its latency") { $0.contains { $0.contains("box") && $0.contains(" ms") } }
        try tmux.press("Enter")
        try tmux.waitFor(text: "shell: persistent")
        try tmux.type("cd /tmp")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 0")
        try tmux.type("pwd")
        try tmux.press("Enter")
        try tmux.waitFor("pwd printing /tmp") { self.count("/tmp", in: $0) == 1 }

        // Esc stops a loop running inside the shell; the shell and its folder stay.
        try tmux.type("while :; do :; done")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Esc stops it")
        try tmux.press("Escape")
        try tmux.waitFor(text: "[stopped (Esc)")
        try tmux.type("pwd")
        try tmux.press("Enter")
        try tmux.waitFor("pwd printing /tmp again") { self.count("/tmp", in: $0) == 2 }

        // `exit` ends the shell: the session says so and the next command runs in a fresh one, at home.
        try tmux.type("exit 3")
        try tmux.press("Enter")
        let ended = try tmux.waitFor(text: "[The shell ended (exit 3): a new one started; cd, variables, aliases are reset]")
        #expect(ended.contains { $0.hasPrefix("[exit 3 ·") })
        try tmux.type("pwd")
        try tmux.press("Enter")
        try tmux.waitFor("pwd printing the home folder") { self.count(servers.home, in: $0) == 1 }
        try tmux.press("F10")
        try tmux.waitFor(text: "Time of connection:")
        try essh.quit()
    }
}
