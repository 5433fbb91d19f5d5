import Foundation
import Testing
import TestSupport

/// `essh exec` on a terminal (tmux) against the real sshd: a hostile server's output cannot set the title, write the
/// clipboard, switch screens or make the terminal answer; `--raw` passes it all as ssh does; a pipe gets the bytes.
@Suite("essh exec on a terminal") struct ExecOnTerminalTests {
    /// On stdout: a title, the clipboard (OSC 52), the alternate screen, a cursor position query, a colour. On
    /// stderr: bracketed paste and a device attributes query.
    static let hostile = #"printf "\033]0;pwned\007\033]52;c;SGVsbG8=\007\033[?1049h\033[6n\033[31mred\033[0m\n"; "#
        + #"printf "\033[?2004h\033[cerr\n" >&2"#
    static let hostileStdout = Data(
        "\u{1B}]0;pwned\u{7}\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[?1049h\u{1B}[6n\u{1B}[31mred\u{1B}[0m\n".utf8)
    static let hostileStderr = Data("\u{1B}[?2004h\u{1B}[cerr\n".utf8)

    func connection(_ s: TestServers) -> String {
        "--known-hosts \(s.knownHosts) -i \(s.key("id_ed25519")) -p \(s.port) \(s.user)@127.0.0.1"
    }

    /// Whether the terminal put a clipboard write into a tmux buffer.
    func clipboard(_ tmux: TmuxSession) -> String? { try? tmux.tmux(["show-buffer"]) }

    /// As OpenSSH, the question about an unknown key lists the names the same key is known by, and an empty
    /// answer refuses it.
    @Test func theHostKeyQuestionListsTheSameKeysOtherNames() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let essh = try EsshInTmux(arguments: "exec --known-hosts \(s.knownHosts) -i \(s.key("id_ed25519")) -p \(s.port) "
                                      + "\(s.user)@localhost true", in: dir, width: 160)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "Are you sure you want to continue connecting")
        let screen = try tmux.screen()
        #expect(screen.contains("This host key is known by the following other names/addresses:"), "\(screen)")
        #expect(screen.contains("    \(s.knownHosts):1: [127.0.0.1]:\(s.port)"), "\(screen)")
        try tmux.press("Enter")
        _ = try essh.waitForExit(255)
    }

    @Test func escapeSequencesAreShownNotObeyedAndColoursPass() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "exec \(connection(s)) " + TmuxSession.shellQuoted(Self.hostile))
        defer { essh.stop() }
        let tmux = essh.tmux
        let screen = try essh.waitForExit(0)
        #expect(screen.contains("␛]0;pwned␇␛]52;c;SGVsbG8=␇␛[?1049h␛[6nred"), "\(screen)")
        #expect(screen.contains("␛[?2004h␛[cerr"), "\(screen)")
        #expect(try tmux.screen(colors: true).contains { $0.contains("\u{1B}[31mred") }, "the colour passes")
        #expect(try tmux.display("#{pane_title}") != "pwned")
        #expect(try tmux.display("#{alternate_on}") == "0")
        #expect(clipboard(tmux) == nil)
        // A reply from the terminal would be echoed where the cursor is, as ^[[1;1R or ^[[?1;2c, possibly just after
        // the exit line (the echo follows tmux's reply); the raw test below sees it within this time.
        usleep(500_000)
        let later = try tmux.screen()
        #expect(!later.joined().contains("^[["), "\(later)")
    }

    @Test func rawPassesEverythingAsSshDoes() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(arguments: "exec --raw \(connection(s)) " + TmuxSession.shellQuoted(Self.hostile))
        defer { essh.stop() }
        let tmux = essh.tmux
        let screen = try essh.waitForExit(0)
        #expect(!screen.joined().contains("␛"))
        #expect(try tmux.display("#{pane_title}") == "pwned")
        #expect(try tmux.display("#{alternate_on}") == "1")
        #expect(clipboard(tmux) == "Hello")
        // The terminal answered the queries: the replies were typed into the terminal (and echoed).
        try tmux.waitFor("the terminal's reply, echoed", timeout: 0.5) { $0.joined().contains("^[[") }
    }

    @Test func intoAPipeTheBytesPassAsTheyCame() throws {
        let s = try TestServers.require()
        let base = ["exec", "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "-p", String(s.port)]
        for args in [base + ["\(s.user)@127.0.0.1", Self.hostile],
                     base + ["--raw", "\(s.user)@127.0.0.1", Self.hostile],
                     base + ["\(s.user)@127.0.0.1", "--raw", "--", Self.hostile]] {
            let r = try Binary.runEssh(args)
            #expect(r.status == 0, "\(r.err)")
            #expect(r.stdout == Self.hostileStdout)
            #expect(r.stderr == Self.hostileStderr)
        }
    }

    @Test func rawIsForOneServer() throws {
        let r = try Binary.runEssh(["exec", "--raw", "web1,web2", "--", "true"])
        #expect(r.status == 64)
        #expect(r.err.contains("--raw is for one server"), "\(r.err)")
    }
}
