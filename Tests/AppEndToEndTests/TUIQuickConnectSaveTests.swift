import Foundation
import Testing
import TestSupport

/// The real `essh` TUI: a host reached by quick connect is saved from the summary with what the login used.
@Suite("essh TUI: saving a quick-connected host")
struct TUIQuickConnectSaveTests {
    @Test func theSummaryOffersToSaveTheHostAndTheFormIsFilledWithTheLogin() throws {
        let servers = try TestServers.require()
        // No agent and an empty home: the only way in is the password, which the saved server must then use.
        let essh = try EsshInTmux(unset: ["SSH_AUTH_SOCK"], homeInFolder: true)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "eSSH — Servers")
        try tmux.press("n")
        try tmux.waitFor(text: "Quick connect")
        try tmux.type("\(servers.user)@\(servers.host):\(servers.port)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for \(servers.user)@")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        let summary = try essh.endSession()
        #expect(summary.contains { $0.contains("Not a saved server: s saves it.") })
        #expect(summary.contains { $0.hasPrefix("s Save server") })
        try tmux.press("s")
        // The whole form, not a frame caught while it was drawn over the summary (seen once under load).
        let form = try tmux.waitFor("the Add server form with its Auth field") { screen in
            screen.contains { $0.contains("Add server") } && screen.contains { $0.contains("Auth") }
        }
        let text = form.joined(separator: "\n")
        #expect(text.contains(servers.host) && text.contains("\(servers.port)") && text.contains(servers.user),
                "host, port and user filled in: \(text)")
        #expect(form.contains { $0.contains("Auth") && $0.contains("password") }, "the login used: \(text)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Saved \(servers.host).")
        try essh.quit()
        let list = try essh.run(["servers", "list", "--json"])
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.contains("\"\(servers.host)\"") && list.out.contains("\(servers.port)")
                && list.out.contains(servers.user) && list.out.contains("\"password\""), "\(list.out)")
    }
}
