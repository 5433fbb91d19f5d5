import Foundation
import Testing
import TestSupport

/// TUIKit and TerminalCurses end to end: the built TUIKitDemo in a real terminal (tmux), driven by keys, resized,
/// fed hostile output, and checked for leaving the terminal as it found it.
@Suite(.serialized) struct DemoInTmuxTests {
    /// The demo with `args` in a terminal; afterwards the pane says `EXIT=<status> RESTORED=yes|no` (whether the
    /// tty modes came back unchanged).
    private static func start(_ args: String, environment: [String: String] = [:], unset: [String] = [],
                              width: Int = 120, height: Int = 35) throws -> TmuxSession {
        try TmuxSession.launch(Binary.product("TUIKitDemo"), arguments: args, environment: environment, unset: unset,
                               width: width, height: height)
    }

    @Test func demoShowsHostileOutputInertlyFollowsKeysAndResizesAndRestoresTheTerminalOnExit() throws {
        let tmux = try Self.start("--lines 40 --interval-ms 5", unset: ["NO_COLOR"])
        defer { tmux.kill() }
        var screen = try tmux.waitFor(text: "-- end of stream --")
        #expect(screen[0].contains("TUIKit demo"))
        #expect(screen.contains { $0.contains("wide: 表示幅テスト 漢字 — done") })
        #expect(screen.contains { $0.contains("title attack ␛]0;HACKED-TITLE␇ end") })
        #expect(screen.contains { $0.contains("clipboard attack ␛]52;c;SGFja2Vk␇ end") })
        #expect(screen.contains { $0.contains("clear attack ␛[2J␛[H end") })
        #expect(screen.contains { $0.contains("C1 CSI ␛[2J end") })
        #expect(screen.contains { $0.contains("bad \u{FFFD}\u{FFFD}( invalid utf-8 end") })
        // The sequences reached the terminal as text: the title and the clipboard are untouched.
        #expect(try tmux.display("#{pane_title}") != "HACKED-TITLE")
        #expect(try tmux.tmux(["list-buffers"]).isEmpty)
        // Colours are on when NO_COLOR is unset (the green status dot).
        #expect(try tmux.screen(colors: true).joined().contains("\u{1B}[32m●"))

        try tmux.press("Down", "Down")
        try tmux.type("hello 日本")
        screen = try tmux.waitFor(text: "Command: hello 日本")
        #expect(screen.contains { $0.contains("> ● 日本語サーバー") })
        try tmux.press("Enter")
        try tmux.waitFor("the echoed line and an empty field") { lines in
            lines.contains { $0.contains("│> hello 日本") }
                && lines.contains { $0.hasPrefix("Command:") && !$0.contains("hello") }
        }
        try tmux.type("HACKED")
        try tmux.press("C-f")
        try tmux.waitFor(text: "Output — find “HACKED”")

        try tmux.resize(width: 80, height: 24)
        screen = try tmux.waitFor("the layout at 80x24") { lines in
            lines.count >= 24 && lines[1].hasSuffix("┐") && lines[1].count == 80 && lines[23].hasPrefix("PgUp Scroll")
        }
        #expect(screen[0].contains("TUIKit demo"))
        try tmux.resize(width: 30, height: 8)
        try tmux.waitFor(text: "Terminal too small (30x8)")
        try tmux.resize(width: 120, height: 35)
        // A whole 120x35 frame can reach tmux in several reads: wait for the output panel too, not the top row alone.
        screen = try tmux.waitFor("the full layout again with the echoed line") { lines in
            lines.count >= 35 && lines[1].count == 120 && lines.contains { $0.contains("│> hello 日本") }
        }
        #expect(screen.contains { $0.contains("│> hello 日本") })

        try tmux.press("F1")
        try tmux.waitFor(text: "Keys (Esc closes)")
        try tmux.press("Escape")
        try tmux.waitFor("the help to close") { !$0.contains { $0.contains("Keys (Esc closes)") } }

        try tmux.press("F6")
        try tmux.press("F4")
        try tmux.waitFor(text: "CHILD-OUTPUT: press Enter to return")
        #expect(try tmux.display("#{alternate_on}") == "0")
        try tmux.press("Enter")
        try tmux.waitFor(text: "child exited with status 3")
        #expect(try tmux.display("#{alternate_on}") == "1")

        try tmux.press("F10")
        try tmux.waitFor(text: "EXIT=0 RESTORED=yes")
        #expect(try tmux.display("#{alternate_on}") == "0")
        #expect(try tmux.display("#{cursor_flag}") == "1")
    }

    @Test func theMouseWheelScrollsTheOutput() throws {
        let tmux = try Self.start("--lines 60 --interval-ms 1", width: 100, height: 20)
        defer { tmux.kill() }
        try tmux.waitFor(text: "-- end of stream --")
        let before = try tmux.screen()
        #expect(before.contains { $0.contains("││00060 clipboard attack") })
        // A wheel-up report as the terminal sends it (X10 mouse encoding: ESC [ M, button 64+32, column, row).
        try tmux.type("\u{1B}[M`!!")
        let after = try tmux.waitFor("the output to scroll up three lines") { lines in
            !lines.contains { $0.contains("end of stream") || $0.contains("││00060") || $0.contains("││00059") }
        }
        #expect(after.contains { $0.contains("││00058 title attack") })
        try tmux.type("\u{1B}[Ma!!")
        try tmux.waitFor(text: "-- end of stream --")
        try tmux.press("F10")
        try tmux.waitFor(text: "EXIT=0 RESTORED=yes")
    }

    @Test func theHostileSequencesWouldWorkIfPrintedRaw() throws {
        // Control experiment: proves the title and clipboard checks above can fail.
        let tmux = try TmuxSession(command: "printf '\\033]2;HACKED-TITLE\\007\\033]52;c;SGFja2Vk\\007'; sleep 300")
        defer { tmux.kill() }
        try tmux.waitFor("the raw sequences to take effect", timeout: 10) { _ in
            (try? tmux.display("#{pane_title}")) == "HACKED-TITLE"
        }
        #expect(try tmux.tmux(["list-buffers"]).contains("Hacked"))
    }

    @Test func noColorTurnsColoursOffButKeepsReverseVideo() throws {
        let tmux = try Self.start("--lines 10 --interval-ms 1", environment: ["NO_COLOR": "1"])
        defer { tmux.kill() }
        try tmux.waitFor(text: "-- end of stream --")
        let colored = try tmux.screen(colors: true).joined()
        #expect(!colored.contains("\u{1B}[32m") && !colored.contains("\u{1B}[31m"))
        #expect(colored.contains("\u{1B}[7m"))
        try tmux.press("F10")
        try tmux.waitFor(text: "EXIT=0 RESTORED=yes")
    }

    /// A kill (SIGTERM), a hang-up of the controlling program (SIGHUP) and the signals of a crash (SIGSEGV,
    /// SIGABRT): the terminal modes come back and the program still dies of the signal.
    @Test(arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGSEGV, 139), (SIGABRT, 134)])
    func aFatalSignalWhileStreamingRestoresTheTerminal(signal: Int32, status: Int) throws {
        let tmux = try Self.start("--lines 100000 --interval-ms 2", environment: ["SWIFT_BACKTRACE": "enable=no"])
        defer { tmux.kill() }
        try tmux.waitFor(text: "streaming")
        kill(try tmux.paneChild(named: "TUIKitDemo"), signal)
        try tmux.waitFor(text: "EXIT=\(status) RESTORED=yes")
        #expect(try tmux.display("#{alternate_on}") == "0")
        #expect(try tmux.display("#{cursor_flag}") == "1")
    }

    @Test func anIdleDemoSleepsInsteadOfSpinning() throws {
        let tmux = try Self.start("--lines 5 --interval-ms 1")
        defer { tmux.kill() }
        try tmux.waitFor(text: "-- end of stream --")
        let demo = try tmux.paneChild(named: "TUIKitDemo")
        usleep(300_000)
        let (switchesBefore, cpuBefore) = (try ProcessStats.contextSwitches(demo), try ProcessStats.cpuTicks(demo))
        usleep(2_000_000)
        let (switchesAfter, cpuAfter) = (try ProcessStats.contextSwitches(demo), try ProcessStats.cpuTicks(demo))
        // Blocked in poll() with no timeout: a busy loop would burn ~200 ticks (2 s of CPU) and a 10 ms poll
        // loop would switch ~200 times.
        let woke = switchesAfter - switchesBefore
        #expect(woke < 10, "the idle demo woke \(woke) times in 2 s")
        #expect(cpuAfter - cpuBefore < 10, "the idle demo used \(cpuAfter - cpuBefore) CPU ticks in 2 s")
        try tmux.press("C-c")
        try tmux.waitFor(text: "EXIT=0 RESTORED=yes")
    }

}
