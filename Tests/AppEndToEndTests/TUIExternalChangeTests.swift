import Foundation
import Testing
import TestSupport

/// The real `essh` interface while the command line changes the same database: servers added and removed by
/// `essh servers add/rm` show up in the list without a restart, and the selected server stays selected.
@Suite("essh TUI: changes made by the command line")
struct TUIExternalChangeTests {
    @Test func theListRefreshesAfterACommandLineServersAddAndRemove() throws {
        let essh = try EsshInTmux(knownHosts: .empty)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "eSSH — Servers (0/0)")
        let port = try LoopbackListener.closedPort()
        let add = try essh.run(["servers", "add", "mango", "--host", "127.0.0.1", "--port", String(port)])
        #expect(add.status == 0, "\(add.err)")
        try tmux.waitFor(text: "eSSH — Servers (1/1)")
        try tmux.waitFor(text: "mango")
        // A server that sorts before the selected one: the selection stays on mango, not on row one.
        #expect(try essh.run(["servers", "add", "apple", "--host", "127.0.0.1", "--port", String(port)]).status == 0)
        try tmux.waitFor(text: "eSSH — Servers (2/2)")
        try tmux.press("e")
        try tmux.waitFor(text: "Edit server mango")
        try tmux.press("Escape")
        try tmux.waitFor(text: "eSSH — Servers (2/2)")
        #expect(try essh.run(["servers", "rm", "apple"]).status == 0)
        let screen = try tmux.waitFor(text: "eSSH — Servers (1/1)")
        #expect(!screen.joined(separator: "\n").contains("apple"), "\(screen)")
        try essh.quit()
    }
}
