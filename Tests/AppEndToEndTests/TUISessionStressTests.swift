import Foundation
import Testing
import TestSupport

/// The real `essh` TUI under load and abuse: 20 MB of output, Esc on long and endless commands, hostile escape
/// sequences, and resizing while output streams.
@Suite("essh TUI session under stress")
struct TUISessionStressTests {
    /// essh on `box`, in a session (the command line waiting).
    private static func start() throws -> EsshInTmux { try EsshInTmux.inSession() }

    /// Ends the session and quits, checking the program exits cleanly.
    private static func finish(_ essh: EsshInTmux) throws {
        try essh.endSession()
        try essh.quit()
    }

    /// `connected 00:01:23` from the header.
    private static func clock(_ screen: [String]) -> String? {
        guard let header = screen.first, let range = header.range(of: #"connected \d\d:\d\d:\d\d"#,
                                                                   options: .regularExpression)
        else { return nil }
        return String(header[range])
    }

    private static func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }

    @Test func twentyMegabytesStreamScrolledMidwayArriveWholeAndTheSessionGoesOn() throws {
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("head -c 20000000 /dev/zero | tr '\\0' x | fold -w 100; echo; echo STREAM-DONE")
        try tmux.waitFor(text: "running head -c")
        // The stream has begun (a PgUp before any output has nothing to scroll, and the view would keep following).
        try tmux.waitFor("the first lines of x") { $0.contains { $0.hasPrefix(String(repeating: "x", count: 100)) } }
        // PgUp while the stream pours in stops the view following it and nothing is lost. (That keys are handled
        // during an endless stream is the next test's; no time limit here: the 20 MB stream itself lasts about 3 s,
        // and on a loaded machine the debug build takes longer than that either way.)
        try tmux.press("PPage")
        try tmux.waitFor(text: "scrolled (End: newest)", timeout: 60)
        try tmux.waitFor(text: "exit 0", timeout: 120)
        try tmux.press("End")
        let done = TmuxSession.rows(try tmux.waitFor(text: "[exit 0", timeout: 10))
        let output = Array(done.dropFirst().dropLast(3))
        #expect(output.suffix(2).first == "STREAM-DONE", "the end of the output arrived: \(output)")
        let lines = output.filter { $0.hasPrefix("x") }
        #expect(lines.count >= 20 && lines.allSatisfy { $0.count == 100 }, "every line is whole: \(output)")
        try tmux.enter("echo still-alive-$((6*7))")
        try tmux.waitFor(text: "still-alive-42")
        try Self.finish(essh)
    }

    @Test func escStopsALongCommandAndAnEndlessStreamPromptlyAndTheClockTicksMeanwhile() throws {
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("sleep 100")
        try tmux.waitFor(text: "running sleep 100")
        var pressed = Date()
        try tmux.press("Escape")
        // One whole frame says so: the output's last line and the status line (a capture may fall between the
        // writes of one frame on a loaded machine, so the frame showing both is waited for, not the first line).
        _ = try tmux.waitFor("the stop shown and the command no longer running", timeout: 5) { screen in
            screen.contains { $0.hasPrefix("[stopped (Esc)") } && !screen.contains { $0.contains("running sleep") }
        }
        #expect(Self.seconds(since: pressed) < 3, "Esc took \(Self.seconds(since: pressed)) s")

        try tmux.enter("cat /dev/zero | tr '\\0' y | fold -w 80")
        let streaming = try tmux.waitFor("endless lines of y") {
            $0.contains { $0.hasPrefix(String(repeating: "y", count: 80)) }
        }
        // The header's clock keeps ticking while output pours in without end.
        let before = try #require(Self.clock(streaming))
        let ticked = try tmux.waitFor("the connected clock to move on", timeout: 5) {
            Self.clock($0).map { $0 != before } ?? false
        }
        #expect(ticked.contains { $0.contains("running cat /dev/zero") }, "still streaming while the clock ticked")
        try tmux.press("PPage")
        try tmux.waitFor(text: "scrolled (End: newest)", timeout: 3)
        pressed = Date()
        try tmux.press("Escape")
        try tmux.waitFor(text: "stopped (Esc)", timeout: 5)
        #expect(Self.seconds(since: pressed) < 3, "Esc took \(Self.seconds(since: pressed)) s")
        try tmux.enter("echo next-$((2+3))")
        try tmux.waitFor(text: "next-5")
        try Self.finish(essh)
    }

    @Test func hostileEscapeSequencesAreShownAsTextAndTheScreenStaysIntact() throws {
        let servers = try TestServers.require()
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        let title = try tmux.display("#{pane_title}")
        try tmux.enter(#"printf '\033[2J\033[H\033]0;pwned\007\033]52;c;cHduZWQ=\007\033[31mRED'"#)
        let screen = try tmux.waitFor(text: "[exit 0")
        #expect(screen[0].contains("\(servers.user)@127.0.0.1:\(servers.port)"), "header intact: \(screen[0])")
        #expect(TmuxSession.rows(screen).last?.hasPrefix("Esc Stop") == true, "key bar intact: \(screen)")
        #expect(screen.contains("Connected to \(servers.user)@127.0.0.1:\(servers.port). Type a command and "
            + "press Enter."), "the clear-screen sequence cleared nothing")
        #expect(screen.contains("␛[2J␛[H␛]0;pwned␇␛]52;c;cHduZWQ=␇RED"), "the sequences shown as text: \(screen)")
        #expect(try tmux.display("#{pane_title}") == title, "the title was not changed")
        #expect(try tmux.tmux(["list-buffers"]).isEmpty, "nothing reached the clipboard")
        let coloured = try tmux.screen(colors: true)
        #expect(!coloured.contains { $0.contains("RED") && $0.contains("\u{1B}[31m") }, "RED is not red")
        try tmux.enter("echo fine")
        try tmux.waitFor("the session working") { $0.contains("fine") }
        try Self.finish(essh)
    }

    @Test func resizingWhileOutputStreamsLosesNothingAndRedrawsTheLayout() throws {
        let servers = try TestServers.require()
        let essh = try Self.start()
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.enter("seq 1 200000")
        try tmux.waitFor(text: "running seq")
        let sizes = [(80, 24), (132, 40), (60, 20), (100, 30), (90, 26)]
        for (width, height) in sizes {
            try tmux.resize(width: width, height: height)
            usleep(150_000)
        }
        let done = TmuxSession.rows(try tmux.waitFor(text: "[exit 0", timeout: 60))
        #expect(done.count == 26, "the pane is 26 rows: \(done.count)")
        #expect(done[0].contains("\(servers.user)@127.0.0.1"), "header redrawn: \(done[0])")
        #expect(done[25].hasPrefix("Esc Stop"), "key bar redrawn at the new bottom: \(done[25])")
        // The newest lines are the end of seq, in order with none missing.
        let numbers = done.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(numbers.last == 200_000)
        #expect(numbers == Array((200_001 - numbers.count)...200_000), "consecutive: \(numbers)")
        #expect(numbers.count >= 15)
        // Further back too: search finds an older line, and the lines around it are consecutive.
        try tmux.press("C-f")
        try tmux.waitFor(text: "Find:")
        try tmux.type("195000")
        try tmux.press("Enter")
        let found = try tmux.waitFor(text: "lines up")
        let around = found.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(around.contains(195_000), "the match is on screen: \(found)")
        if let first = around.first, let last = around.last, first <= last {
            #expect(around == Array(first...last), "consecutive around the match: \(around)")
        }
        try tmux.press("Escape")
        try tmux.waitFor("the command line back") { $0.contains { $0 == ">" || $0.hasPrefix("> ") } }
        try tmux.enter("echo after-resize")
        try tmux.waitFor("the session working") { $0.contains("after-resize") }
        try Self.finish(essh)
    }
}
