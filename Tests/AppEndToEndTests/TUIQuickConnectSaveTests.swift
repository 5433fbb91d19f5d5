import Foundation
import Testing
import TestSupport

/// The real `essh` TUI: a host reached by quick connect is saved from the summary with what the login used.
@Suite("essh TUI: saving a quick-connected host")
struct TUIQuickConnectSaveTests {
    @Test func theSummaryOffersToSaveTheHostAndTheFormIsFilledWithTheLogin() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("essh.db")
        // No agent and an empty home: the only way in is the password, which the saved server must then use.
        let command = "env -u SSH_AUTH_SOCK HOME=\(dir.path) ESSH_DB=\(db) ESSH_KNOWN_HOSTS=\(servers.knownHosts) "
            + "XDG_STATE_HOME=\(dir.path)/state LANG=C.UTF-8 TERM=xterm-256color \(Binary.essh); "
            + "echo ESSH-EXITED-$?; sleep 30"
        let tmux = try TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.kill() }
        try tmux.waitFor(text: "eSSH — Servers")
        try tmux.press("n")
        try tmux.waitFor(text: "Quick connect")
        try tmux.type("\(servers.user)@\(servers.host):\(servers.port)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for \(servers.user)@")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.press("F10")
        let summary = try tmux.waitFor(text: "Time of connection:")
        #expect(summary.contains { $0.contains("Not a saved server: s saves it.") })
        #expect(summary.contains { $0.hasPrefix("s Save server") })
        try tmux.press("s")
        let form = try tmux.waitFor(text: "Add server")
        let text = form.joined(separator: "\n")
        #expect(text.contains(servers.host) && text.contains("\(servers.port)") && text.contains(servers.user),
                "host, port and user filled in: \(text)")
        #expect(form.contains { $0.contains("Auth") && $0.contains("password") }, "the login used: \(text)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Saved \(servers.host).")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
        let list = try Binary.runEssh(["servers", "list", "--json"], environment: ["ESSH_DB": db])
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.contains("\"\(servers.host)\"") && list.out.contains("\(servers.port)")
                && list.out.contains(servers.user) && list.out.contains("\"password\""), "\(list.out)")
    }
}
