import Foundation
import Testing
import TestSupport

/// Fleet commands in the real `essh` in tmux: mark servers, `x`, a command, the results screen.
@Suite("essh TUI fleet in tmux", .serialized)
struct TUIFleetTests {
    /// Saves these servers (the real sshd at each loopback address, the harness key) and opens essh on them.
    /// A tag `pw` saves the server as logging in with a password, `badkey` with a key the server refuses.
    private func start(_ list: [(name: String, host: String, tag: String)]) throws -> EsshInTmux {
        try EsshInTmux(servers: list.map { name, host, tag in
            EsshInTmux.Server(name, host: host, login: tag == "pw" ? .password
                                  : .key(tag == "badkey" ? "id_unauthorized" : "id_ed25519"), tags: [tag])
        })
    }

    @Test func markTwoServersRunACommandAndReadTheGroupedResults() throws {
        let essh = try start([("alpha", "127.0.0.2", "web"), ("beta", "127.0.0.3", "web"), ("gamma", "127.0.0.1", "db")])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "gamma")
        // Space marks alpha and moves on; Space marks beta.
        try tmux.press("Space")
        try tmux.press("Space")
        try tmux.waitFor(text: "2 marked")
        _ = try tmux.waitForSelectedRow(containing: "gamma")
        // By name: gamma's status cell may change between two reads (its start check ends meanwhile).
        let selectedRows = try tmux.selectedRows()
        #expect(selectedRows.count == 1 && selectedRows[0].hasPrefix("● gamma "),
                "the selection moved on from alpha and beta: \(selectedRows)")
        try tmux.press("x")
        try tmux.waitFor(text: "Command to run on 2 servers at once")
        try tmux.type("echo same; printf '\\033[2J'")
        try tmux.press("Enter")
        let results = try tmux.waitFor("both servers ok") { lines in
            lines.contains { $0.hasPrefix("alpha") && $0.contains(" ok ") }
                && lines.contains { $0.hasPrefix("beta") && $0.contains(" ok ") }
        }
        #expect(results[0].contains("Run: echo same"))
        // Identical outputs show once, with both servers; the escape sequence is shown, not obeyed.
        try tmux.waitFor(text: "== alpha, beta (2 servers) · ok (exit 0)")
        // The summary comes with the run's end, which can reach the screen a frame after the last result.
        let screen = try tmux.waitFor(text: "2 servers: 2 ok in ")
        #expect(screen.filter { $0.hasPrefix("same") }.count == 1)
        #expect(screen.contains { $0.contains("␛[2J") })
        #expect(!screen.contains { $0.hasPrefix("gamma") })
        #expect(screen.contains { $0.contains("2 servers: 2 ok in ") })
        // Enter opens one server's full output; Esc goes back, and again to the servers.
        try tmux.press("Enter")
        try tmux.waitFor(text: "alpha: ok (exit 0)")
        try tmux.press("Escape")
        try tmux.waitFor(text: "== alpha, beta")
        try tmux.press("Escape")
        try tmux.waitFor(text: "2 marked")
        // The tag: filter and * mark exactly the tagged servers.
        try tmux.press("Space")
        try tmux.waitFor(text: "3 marked")
        // * on a list whose servers are all marked unmarks them.
        try tmux.press("*")
        try tmux.waitFor(text: "Unmarked 3 servers.")
        #expect(try !tmux.screen()[0].contains("marked"))
        try tmux.press("/")
        try tmux.type("tag:db")
        try tmux.press("Enter", "*")
        try tmux.waitFor(text: "1 marked")
        try essh.quit()
    }

    @Test func escStopsTheServersStillRunningAndKeepsWhatFinished() throws {
        let essh = try start([("fast", "127.0.0.1", "a"), ("slow", "127.0.0.2", "a")])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "slow")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 2 servers")
        try tmux.type("set -- $SSH_CONNECTION; [ $3 = 127.0.0.1 ] && echo quick || sleep 60")
        try tmux.press("Enter")
        try tmux.waitFor("fast ok, slow running") { lines in
            lines.contains { $0.hasPrefix("fast") && $0.contains(" ok ") }
                && lines.contains { $0.hasPrefix("slow") && $0.contains("running") }
        }
        try tmux.press("Escape")
        let after = try tmux.waitFor(text: "2 servers: 1 ok, 1 cancelled")
        #expect(after.contains { $0.hasPrefix("fast") && $0.contains(" ok ") })
        #expect(after.contains { $0.hasPrefix("slow") && $0.contains("cancelled") })
        try tmux.press("Escape")
        try tmux.waitFor(text: "2 marked")
        try essh.quit()
    }

    @Test func onePasswordAskedOnceLogsInToThePasswordServers() throws {
        let servers = try TestServers.require()
        let essh = try start([("keyed", "127.0.0.1", "a"), ("pw1", "127.0.0.2", "pw"), ("pw2", "127.0.0.3", "pw")])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "pw2")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 3 servers")
        try tmux.type("id -un")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for the 2 servers that log in with one")
        try tmux.type(servers.password)
        #expect(try !tmux.screen().contains { $0.contains(servers.password) })
        try tmux.press("Enter")
        try tmux.waitFor(text: "3 servers: 3 ok in ")
        try tmux.waitFor(text: "== keyed, pw[1-2] (3 servers) · ok (exit 0)")
        try tmux.press("Escape")
        try essh.quit()
    }

    /// The password servers' host keys are checked before the password is asked: with the only password server's
    /// key unknown, nothing is asked, its row says host-key-unknown and its sentence gives the interface's way to
    /// trust the key (not the command line's --host-key-policy).
    @Test func noPasswordIsAskedForAServerWhoseHostKeyIsUnknown() throws {
        let essh = try EsshInTmux(servers: [.init("keyed", host: "127.0.0.1"),
                                            .init("newname", host: "localhost", login: .password)],
                                  width: 140, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "newname")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 2 servers")
        try tmux.type("echo ran")
        try tmux.press("Enter")
        let screen = try tmux.waitFor(text: "2 servers: 1 ok, 1 host-key-unknown in ")
        #expect(!screen.contains { $0.contains("Password for") }, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("newname") && $0.contains("host-key-unknown") }, "\(screen)")
        // The sentence is longer than the screen: newname's full output, scrolled sideways by half a screen at a
        // time (so any 70 columns are whole in some view).
        try tmux.press("Down", "Enter")
        try tmux.waitFor(text: "newname: host-key-unknown")
        // Each view is read once the screen has moved (a read right after the key could see the previous frame).
        var views = [try tmux.screen()]
        while views.count < 8 && views.last![1].contains(where: { !$0.isWhitespace }) {
            let before = views.last!
            try tmux.press("Right")
            views.append(try tmux.waitFor("the output to move sideways", timeout: 5) { $0 != before })
        }
        #expect(views.contains { $0.contains { $0.contains("press Enter on the server in the list") } }, "\(views)")
        #expect(!views.contains { $0.contains { $0.contains("--host-key-policy") } }, "\(views)")
        try tmux.press("Escape", "Escape")
        try essh.quit()
    }

    @Test func thePasswordNeverGoesToAServerSavedWithAKey() throws {
        let servers = try TestServers.require()
        // The sshd would take the password from keyonly too; keyonly is saved with a key it refuses.
        let essh = try start([("keyonly", "127.0.0.1", "badkey"), ("pwsrv", "127.0.0.2", "pw")])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "pwsrv")
        try tmux.press("*", "x")
        try tmux.waitFor(text: "Command to run on 2 servers")
        try tmux.type("echo logged-in")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for the")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        let screen = try tmux.waitFor(text: "2 servers: 1 ok, 1 auth-failed")
        #expect(screen.contains { $0.hasPrefix("keyonly") && $0.contains("auth-failed") })
        #expect(screen.contains { $0.hasPrefix("pwsrv") && $0.contains(" ok ") })
        try tmux.press("Escape")
        try essh.quit()
    }

    @Test func f6MailsTheWholeReport() throws {
        let essh = try start([("alpha", "127.0.0.2", "a"), ("beta", "127.0.0.3", "a")])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "beta")
        try tmux.press("Space", "Space")
        try tmux.press("x")
        try tmux.type("echo same")
        try tmux.press("Enter")
        try tmux.waitFor(text: "2 servers: 2 ok in ")
        try tmux.press("F6")
        try tmux.waitFor(text: "essh: echo same on 2 servers")
        let marker = "fleet-\(UUID().uuidString.prefix(8))"
        let address = try MailInspector.localAddress()
        try tmux.type(address)
        try tmux.press("Tab", "C-u")
        try tmux.type(marker)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Mail sent to \(address).")
        let mail = try MailInspector.parse(try MailInspector.delivered(to: "essh-test", marker: marker))
        #expect(mail.defects.isEmpty)
        let text = try #require(mail.parts.first?.text)
        #expect(text.hasPrefix("Command: echo same\n2 servers: 2 ok in "))
        #expect(text.contains("\nalpha   ok           0     "))
        #expect(text.hasSuffix("\n== alpha, beta (2 servers) · ok (exit 0)\nsame\n"))
        try tmux.press("Escape")
        try essh.quit()
    }
}
