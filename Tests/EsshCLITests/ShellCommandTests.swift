import Foundation
import Testing
import TestSupport

/// `essh shell` / `essh DEST` in a real terminal (tmux) against the real test sshd.
@Suite("essh shell in tmux") struct ShellCommandTests {
    func connection(_ s: TestServers) -> String {
        "--known-hosts \(s.knownHosts) -i \(s.key("id_ed25519")) -p \(s.port) \(s.user)@127.0.0.1"
    }

    /// The essh process in the pane (the pane runs sh, which runs essh).
    func esshConnection(_ tmux: TmuxSession, _ s: TestServers) throws -> SSHDConnection {
        let pane = Int32(try tmux.display("#{pane_pid}")) ?? -1
        let listener = try #require(SSHDConnection.listenerPid(stateDir: s.stateDir))
        return try #require(SSHDConnection.wait(clientPid: pane, port: s.port, listenerPid: listener),
                            "the sshd serving essh's connection")
    }

    @Test func typedCommandsRunResizesReachTheServerAndTheExitStatusComesBack() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "shell " + connection(s))
        defer { essh.stop() }
        let tmux = essh.tmux
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        try RemoteShellScript.typeAndResize(tmux, from: (100, 30), to: (120, 40))
        // Ctrl-C reaches the remote PTY (raw mode): it interrupts the remote command, not essh.
        try tmux.type("sleep 30")
        try tmux.press("Enter")
        try tmux.press("C-c")
        try tmux.type("echo still-here")
        try tmux.press("Enter")
        try tmux.waitFor(text: "still-here")
        try tmux.type("exit 3")
        try tmux.press("Enter")
        let screen = try essh.waitForExit(3)
        #expect(screen.contains { $0.contains("exited with status 3") })
        #expect(screen.contains { $0.contains("Connected for") })
        try tmux.waitFor(text: "TTY-SANE")
    }

    @Test func verboseNamesTheNegotiatedAlgorithmsBeforeTheShell() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "shell -v -c aes128-ctr,aes256-ctr --macs hmac-sha2-512 "
                                      + connection(s))
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "client to server: cipher aes128-ctr, MAC hmac-sha2-512")
        try tmux.waitFor(text: "server to client: cipher aes128-ctr, MAC hmac-sha2-512")
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        try tmux.type("exit")
        try tmux.press("Enter")
        _ = try essh.waitForExit(0)
    }

    @Test func tildeDotLeavesAndTildeQuestionMarkListsTheEscapes() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: connection(s))  // `essh DEST` is `essh shell DEST`
        defer { essh.stop() }
        let tmux = essh.tmux
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        try tmux.type("echo one")
        try tmux.press("Enter")
        try tmux.waitFor(text: "one")
        try tmux.type("~?")
        try tmux.waitFor(text: "Supported escape sequences")
        // `~~` at the start of a line sends one `~` (bash then runs `~/`, the home folder); mid-line `~.` is text.
        try tmux.type("~~/ ; echo a~.b")
        try tmux.press("Enter")
        try tmux.waitFor(text: "a~.b")
        try tmux.waitFor(text: "\(s.home)/: Is a directory")
        try tmux.type("~.")
        let screen = try essh.waitForExit(255)
        #expect(screen.contains { $0.contains("Disconnected from the shell") })
        try tmux.waitFor(text: "TTY-SANE")
    }

    @Test func killingTheServersProcessEndsTheShellWithAClearMessage() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "shell " + connection(s))
        defer { essh.stop() }
        let tmux = essh.tmux
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        let sshd = try esshConnection(tmux, s)
        sshd.signal(SIGKILL)
        let screen = try essh.waitForExit(255, timeout: 10)
        #expect(screen.contains { $0.contains("was lost") })
        try tmux.waitFor(text: "TTY-SANE")
    }

    @Test func aServerThatStopsAnsweringIsNoticedByKeepalives() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "shell --keepalive 1 " + connection(s))
        defer { essh.stop() }
        let tmux = essh.tmux
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        let sshd = try esshConnection(tmux, s)
        // Stopped, the server's processes keep the TCP connection open but say nothing: a dead network.
        sshd.signal(SIGSTOP)
        defer { sshd.signal(SIGCONT); sshd.signal(SIGKILL) }
        let screen = try essh.waitForExit(255, timeout: 15)
        #expect(screen.joined().contains("did not answer 3 keepalives"))
        try tmux.waitFor(text: "TTY-SANE")
    }

    @Test func aTerminatingSignalRestoresTheTerminal() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "shell " + connection(s))
        defer { essh.stop() }
        let tmux = essh.tmux
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        let pane = Int32(try tmux.display("#{pane_pid}")) ?? -1
        let pid = try #require(SSHDConnection.descendant(of: pane, named: "essh"))
        kill(pid, SIGTERM)
        let screen = try tmux.waitFor(text: "TTY-", timeout: 10)
        #expect(screen.contains { $0.contains("TTY-SANE") })
        #expect(screen.contains { $0.contains(EsshInTmux.exitMarker + "130 ") }, "interrupted, as essh exec says it")
        #expect(screen.contains { $0.contains("was interrupted") })
    }

    @Test func aSavedServersNameOpensItsShellAndRecordsTheConnection() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("essh.db")
        let essh = try EsshInTmux(servers: [.box()], arguments: "--db \(db) --known-hosts \(s.knownHosts) box", in: dir)
        defer { essh.stop() }
        let tmux = essh.tmux
        try RemoteShellScript.waitForPrompt(tmux, user: s.user)
        try tmux.type("exit")
        try tmux.press("Enter")
        try essh.waitForExit(0)
        let list = try Binary.runEssh(["servers", "list", "--json"], environment: ["ESSH_DB": db])
        #expect(list.out.contains("\"last_connected\" : \"20"), "\(list.out)")
    }

    @Test func anUnknownWordIsNeitherACommandNorAServer() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let essh = try EsshInTmux(arguments: "--db \(dir.file("essh.db")) lsit", in: dir)
        defer { essh.stop() }
        let screen = try essh.waitForExit(255)
        let text = screen.joined(separator: " ")
        #expect(text.contains("could not be resolved"))
        #expect(text.contains("lsit"))
        #expect(text.contains("not an essh command"))
    }

    @Test func wordsAfterDestAreACommandToRunAsWithSSH() throws {
        let s = try TestServers.require()
        let words = connection(s).split(separator: " ").map(String.init)
        let r = try Binary.runEssh(words + ["echo", "-n", "a", "b;", "exit 4"])
        #expect(r.status == 4)
        #expect(r.out == "a b")
        // Subcommands keep their meaning; `essh` alone is the interface (not tried here: it needs a terminal).
        let dir = try TempDir()
        defer { dir.cleanup() }
        let list = try Binary.runEssh(["servers", "list"], environment: ["ESSH_DB": dir.file("essh.db")])
        #expect(list.status == 0, "\(list.err)")
    }

    @Test func aDoubleDashAfterDestIsPartOfTheCommandAsWithSSH() throws {
        let s = try TestServers.require()
        let words = connection(s).split(separator: " ").map(String.init)
        // ssh box echo a -- b runs `echo a -- b`.
        let r = try Binary.runEssh(words + ["echo", "a", "--", "b"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "a -- b\n")
        // A `--` right after DEST is the separator, as before.
        let separated = try Binary.runEssh(words + ["--", "echo", "-n", "x"])
        #expect(separated.status == 0, "\(separated.err)")
        #expect(separated.out == "x")
    }

    @Test func aShellOnlyOptionWithACommandSaysWhy() throws {
        let s = try TestServers.require()
        let words = connection(s).split(separator: " ").map(String.init)
        let r = try Binary.runEssh(["--keepalive", "5"] + words + ["uptime"])
        #expect(r.status == 64)
        #expect(r.err.contains("--keepalive belongs to the interactive shell"), "\(r.err)")
        #expect(!r.err.contains("Unknown option"))
    }

    @Test func withoutATerminalItSaysToUseExec() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(["shell"] + connection(s).split(separator: " ").map(String.init), stdin: Data())
        // 1, as the interface without a terminal (the one exit-status table): it cannot run here.
        #expect(r.status == 1)
        #expect(r.err.contains("needs a terminal"))
        #expect(r.err.contains("essh exec"))
    }
}
