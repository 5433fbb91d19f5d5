import Foundation
import InteractiveShell
import Inventory
import SSH
import Testing
import TUIKit
@testable import AppCore

/// What a session does for a day's work (issue 14 §1): commands that need a terminal, progress lines, Ctrl-C and
/// Ctrl-Z, long lines and raw JSON, a dropped connection and `r`, Ctrl-R, and Alt-digits for the F-keys.
@Suite("Sessions for daily work: update")
struct SessionDailyUseTests {
    /// The session's lines, oldest first.
    private func lines(_ state: AppState) -> [String] {
        guard let scrollback = state.session?.scrollback else { return [] }
        return (scrollback.firstLine..<scrollback.endLine).compactMap { scrollback[$0] }
    }

    private func run(_ state: inout AppState, _ command: String, output: String, status: Int32 = 0) {
        Fixtures.type(&state, command)
        let effects = Fixtures.keys(&state, .enter)
        guard case .run(let id, _)? = effects.first?.work else {
            Issue.record("\(command) did not run: \(effects)")
            return
        }
        _ = Update.update(&state, .output(id: id, bytes: Array(output.utf8)))
        _ = Update.update(&state, .commandFinished(id: id, status: status, signal: nil, at: Fixtures.now))
    }

    // MARK: Commands that need a terminal

    @Test func theFirstPromptSaysHowCommandsThatNeedATerminalRun() {
        let state = Fixtures.inSession()
        let said = lines(state).prefix(4).joined(separator: "\n")
        #expect(said.contains("!COMMAND") && said.contains("sudo") && said.contains("^R"))
        #expect(lines(state).allSatisfy { $0.count <= 80 }, "nothing wraps at 80 columns")
    }

    @Test func aCommandThatNeedsATerminalIsHandedTheTerminalAndItsEndIsTheSessionsLine() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "sudo -k; sudo true")
        let effects = Fixtures.keys(&state, .enter)
        #expect(effects == [.handOver(.terminal(line: "sudo -k; sudo true", command: "sudo -k; sudo true",
                                                title: "admin@10.0.0.5"))])
        #expect(lines(state).last == "$ sudo -k; sudo true")
        #expect(state.session?.running == nil, "nothing runs in the session meanwhile")
        let outcome = ShellOutcome(end: .exited(CommandExit(status: 0, signal: nil)), duration: 4.5)
        let back = Update.update(&state, .handedBack(.terminal(line: "sudo -k; sudo true", outcome)))
        #expect(back == [.appendHistory(server: "web1", command: "sudo -k; sudo true", status: 0)])
        #expect(lines(state).last == "[exit 0 · 4.50 s · on a terminal]")
        #expect(state.session?.history.last == "sudo -k; sudo true")
        #expect(state.session?.commandsRun == 1)
    }

    @Test func theBangPrefixGivesAnyCommandATerminalAndBangSpaceIsTheShellsOwn() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "!mysql prod")
        #expect(Fixtures.keys(&state, .enter) == [.handOver(.terminal(line: "!mysql prod", command: "mysql prod",
                                                                      title: "admin@10.0.0.5"))])
        _ = Update.update(&state, .handedBack(.terminal(line: "!mysql prod", ShellOutcome(end: .escape, duration: 1))))
        #expect(lines(state).last == "[left with ~. · 1.00 s · on a terminal]")
        Fixtures.type(&state, "! grep -q x /etc/hosts")
        #expect(Fixtures.keys(&state, .enter) == [.run(id: 1, command: "! grep -q x /etc/hosts")])
    }

    @Test func aConnectionLostOnTheTerminalIsTheSessions() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "top")
        #expect(Fixtures.keys(&state, .enter).first == .handOver(.terminal(line: "top", command: "top",
                                                                            title: "admin@10.0.0.5")))
        let outcome = ShellOutcome(end: .connectionLost("The server stopped answering."), duration: 30)
        #expect(Update.update(&state, .handedBack(.terminal(line: "top", outcome))) == [.disconnect])
        #expect(state.session?.link == .lost("The server stopped answering."))
    }

    @Test func whichCommandsNeedATerminal() {
        func terminal(_ line: String) -> String? { TerminalCommand.classify(line)?.command }
        for line in ["top", "htop", "vi /etc/hosts", "/usr/bin/vim x", "less +G log", "man ssh", "passwd", "su -",
                     "ssh other", "watch -n1 date", "sudo apt upgrade", "apt install -y nginx", "apt-get remove x",
                     "python3", "mysql", "crontab -e", "systemctl edit nginx", "sudo -k; sudo true",
                     "ps aux | less", "LANG=C top", "env TERM=xterm nice -n 5 top", "sudo -u root id", "! top"] {
            #expect(terminal(line) == line, "\(line) needs a terminal")
        }
        for line in ["ls -l", "sudo -n true", "sudo -k", "apt list --installed", "apt update", "python3 -c 'print(1)'",
                     "crontab -l", "systemctl status nginx", "echo top", "grep vi file", "echo 'a; top'",
                     "cat x > top", "journalctl -u ssh"] {
            #expect(terminal(line) == nil, "\(line) runs in the session")
        }
        #expect(TerminalCommand.classify("  !top -d 1  ")?.command == "top -d 1")
        #expect(TerminalCommand.classify("!top")?.reason == .prefix)
        #expect(TerminalCommand.classify("top")?.reason == .program("top"))
        #expect(TerminalCommand.classify("!") == nil)
    }

    // MARK: Progress lines

    @Test func aCarriageReturnUpdatesOneLineAndCRLFStaysOneLineEnd() {
        var state = Fixtures.inSession()
        run(&state, "printf 'a\\rb\\n'", output: "a\rb\n")
        #expect(lines(state).suffix(3) == ["$ printf 'a\\rb\\n'", "b", "[exit 0 · 0.00 s]"])
        run(&state, "wget x", output: "  0% [      ]\r 50% [===   ]\r100% [======]\r\ndone\r\n")
        #expect(lines(state).suffix(4) == ["$ wget x", "100% [======]", "done", "[exit 0 · 0.00 s]"])
    }

    // MARK: Ctrl-C, Ctrl-Z

    @Test func ctrlCStopsTheRunningCommandAsEscAndElseClearsTheLine() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "while :; do :; done")
        Fixtures.keys(&state, .enter)
        #expect(Fixtures.keys(&state, .ctrl("c")) == [.cancelCommand])
        _ = Update.update(&state, .commandFailed(id: 1, message: RunningCommand.stopped, connectionLost: false,
                                                 at: Fixtures.now))
        #expect(lines(state).last == "[stopped (^C) · 0.00 s]")
        Fixtures.type(&state, "half typed")
        #expect(Fixtures.keys(&state, .ctrl("c")).isEmpty)
        #expect(state.session?.input.text == "")
    }

    @Test func ctrlZSuspendsFromEveryScreenAndUnderAnyOverlay() {
        var servers = Fixtures.loaded()
        #expect(Fixtures.keys(&servers, .ctrl("z")) == [.suspend])
        var session = Fixtures.inSession()
        Fixtures.keys(&session, .function(1))
        #expect(Fixtures.keys(&session, .ctrl("z")) == [.suspend])
        #expect(session.showHelp, "the help stays open")
        #expect(HelpOverlay.lines(session).contains { $0.description.hasPrefix("Suspend eSSH") })
    }

    // MARK: Long lines, raw JSON

    @Test func a300CharacterLineWrapsWithAMarkerAndIsReadableToItsEnd() {
        var state = Fixtures.inSession()
        let long = (0..<30).map { String(format: "%09d|", $0 * 10) }.joined()
        #expect(long.count == 300)
        run(&state, "echo long", output: long + "\n")
        let output = Fixtures.screen(state)[1..<21]
        #expect(output.filter { $0.contains("|") && $0.hasSuffix("↩") }.count == 3,
                "79 characters a row: three rows go on, a fourth ends")
        let joined = output.map { $0.hasSuffix("↩") ? String($0.dropLast()) : $0 }.joined()
        #expect(joined.contains(long), "every character of the line is on the screen, in order")
    }

    @Test func withWrappingOffArrowsOnAnEmptyLineScrollSidewaysWithMarkers() {
        var state = Fixtures.inSession()
        state.settings.wrapLines = false
        let long = String(repeating: "a", count: 100) + "THE-END"
        run(&state, "echo long", output: long + "\n")
        #expect(Fixtures.screen(state).contains { $0.hasPrefix("aaaa") && $0.hasSuffix("a›") })
        Fixtures.keys(&state, .right, .right)
        #expect(state.session?.view.left == 80)
        #expect(Fixtures.screen(state).contains { $0.hasPrefix("‹") && $0.contains("THE-END") })
        Fixtures.keys(&state, .left, .left, .left)
        #expect(state.session?.view.left == 0)
        Fixtures.type(&state, "ab")
        Fixtures.keys(&state, .left)
        #expect(state.session?.view.left == 0 && state.session?.input.cursor == 1, "a line being typed is edited")
    }

    @Test func rawJSONOfAQuickCommandIsIndented() {
        var state = Fixtures.inSession()
        let effects = Fixtures.keys(&state, .function(2))
        guard case .runQuick(let id, _, _)? = effects.first?.work else {
            Issue.record("F2 ran nothing")
            return
        }
        let json = #"[{"ifindex":1,"ifname":"lo","addr_info":[{"family":"inet","local":"127.0.0.1"}],"flags":[]}]"#
        _ = Update.update(&state, .output(id: id, bytes: Array(json.utf8)))
        _ = Update.update(&state, .quickFinished(id: id, result: QuickResult(kind: .interfaces,
                                                                             commandLine: "ip -j addr", table: nil,
                                                                             error: "no table"), at: Fixtures.now))
        let shown = lines(state)
        #expect(shown.contains(#"    "ifname": "lo","#))
        #expect(shown.contains(#"        "local": "127.0.0.1""#))
        #expect(shown.contains(#"    "flags": []"#))
        #expect(state.session?.capture?.bytes == Array(json.utf8), "mail and save get the bytes as they came")
    }

    // MARK: A dropped connection, r

    @Test func rReconnectsOnTheSameScreenKeepingTheOutput() {
        var state = Fixtures.inSession()
        run(&state, "echo before", output: "before\n")
        #expect(Update.update(&state, .connectionLost("The server closed the connection.", at: Fixtures.now))
                == [.disconnect])
        Fixtures.type(&state, "uptime")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.notice == Update.notConnected)
        #expect(Fixtures.keys(&state, .function(2)).isEmpty, "no quick command either")
        Fixtures.keys(&state, .ctrl("c"))
        #expect(state.session?.input.text == "")
        let target = state.session!.target
        #expect(Fixtures.keys(&state, .character("r")) == [.connect(target, knownHosts: "")])
        #expect(state.session?.link == .reconnecting("Starting"))
        _ = Update.update(&state, .connectStage("Logging in (password)"))
        #expect(Fixtures.screen(state)[21].contains("Reconnecting: Logging in (password)"))
        _ = Update.update(&state, .prompt(PromptRequest(id: 4, kind: .password(user: "admin", host: "10.0.0.5",
                                                                              attempt: 1))))
        #expect(state.prompt != nil, "the password is asked over the session")
        Fixtures.type(&state, "pw")
        #expect(Fixtures.keys(&state, .enter) == [.answer(id: 4, .text(["pw"]))])
        let effects = Update.update(&state, .connected(os: .linux, at: Fixtures.now.addingTimeInterval(200)))
        #expect(effects == [.recordConnection(name: "web1", os: .linux)])
        #expect(state.screen.kind == .session && state.session?.link == .up)
        #expect(lines(state).contains("before"))
        #expect(lines(state).last?.hasPrefix("[reconnected to admin@10.0.0.5 at ") == true)
        #expect(Fixtures.keys(&state, .character("r")).isEmpty && state.session?.input.text == "r",
                "r types once connected")
    }

    @Test func aFailedReconnectionSaysWhyAndRTriesAgain() {
        var state = Fixtures.inSession()
        _ = Update.update(&state, .connectionLost("gone", at: Fixtures.now))
        Fixtures.keys(&state, .character("r"))
        #expect(Fixtures.keys(&state, .escape) == [.cancelConnect])
        _ = Update.update(&state, .connectFailed("10.0.0.5 refused the connection on port 22."))
        #expect(state.screen.kind == .session && state.dialog == nil)
        #expect(state.session?.link == .lost("10.0.0.5 refused the connection on port 22."))
        #expect(lines(state).last == "[could not reconnect: 10.0.0.5 refused the connection on port 22.]")
        #expect(Fixtures.keys(&state, .character("r")).count == 1)
        // Ended while reconnecting: the cancelled connection's end is no dialog over the summary.
        #expect(Fixtures.keys(&state, .function(10)) == [.disconnect])
        _ = Update.update(&state, .connectFailed("Cancelled."))
        #expect(state.screen.kind == .summary && state.dialog == nil)
    }

    // MARK: Ctrl-R, fleet history

    @Test func ctrlRSearchesTheHistoryAsYouTypeAndAgainForOlder() {
        var state = Fixtures.inSession()
        _ = Update.update(&state, .history(["df -h", "tail -f /var/log/syslog", "uptime", "tail -n 5 /var/log/auth.log"]))
        Fixtures.type(&state, "draft")
        Fixtures.keys(&state, .ctrl("r"))
        Fixtures.type(&state, "tail")
        #expect(Fixtures.screen(state)[22].contains("tail -n 5 /var/log/auth.log"))
        Fixtures.keys(&state, .ctrl("r"))
        #expect(Fixtures.screen(state)[22].contains("tail -f /var/log/syslog"))
        Fixtures.keys(&state, .ctrl("r"))
        #expect(Fixtures.screen(state)[22].contains("not found"))
        Fixtures.keys(&state, .escape)
        #expect(state.session?.input.text == "draft" && state.session?.historySearch == nil)
        Fixtures.keys(&state, .ctrl("r"))
        Fixtures.type(&state, "DF")
        Fixtures.keys(&state, .right)
        #expect(state.session?.input.text == "df -h", "→ puts it on the line to change it")
        Fixtures.keys(&state, .ctrl("u"), .ctrl("r"))
        Fixtures.type(&state, "upt")
        #expect(Fixtures.keys(&state, .enter) == [.run(id: 1, command: "uptime")])
    }

    @Test func fleetCommandsHaveAHistoryOfTheirOwn() {
        var state = Fixtures.loaded()
        #expect(Fixtures.keys(&state, .character("x")) == [.loadFleetHistory])
        _ = Update.update(&state, .fleetHistory(["uptime", "df -h /"]))
        Fixtures.keys(&state, .up)
        #expect(state.fleetQuestion?.input.text == "df -h /")
        Fixtures.keys(&state, .up, .down, .down)
        #expect(state.fleetQuestion?.input.text == "")
        Fixtures.keys(&state, .ctrl("r"))
        Fixtures.type(&state, "upt")
        #expect(Fixtures.screen(state).contains { $0.contains("→ uptime") })
        let effects = Fixtures.keys(&state, .enter)
        #expect(effects.last == .appendFleetHistory(command: "uptime", servers: 1))
        #expect(state.screen.kind == .fleet)
        Fixtures.keys(&state, .escape, .escape)
        #expect(Fixtures.keys(&state, .character("x")).isEmpty, "the history is read once")
        Fixtures.keys(&state, .up)
        #expect(state.fleetQuestion?.input.text == "uptime")
    }

    // MARK: Alt-digits

    @Test func altDigitsDoWhatTheFKeysDo() {
        var state = Fixtures.inSession()
        #expect(Fixtures.keys(&state, .alt("2")) == [.runQuick(id: 1, kind: .interfaces, os: .linux)])
        _ = Update.update(&state, .quickFinished(id: 1, result: QuickResult(kind: .interfaces, commandLine: "ip addr",
                                                                             table: nil, error: nil), at: Fixtures.now))
        Fixtures.keys(&state, .alt("1"))
        #expect(state.showHelp)
        #expect(HelpOverlay.lines(state).contains { $0.keys == "F2/Alt-2" })
        Fixtures.keys(&state, .escape)
        let shown = state.session?.showParsed
        Fixtures.keys(&state, .alt("5"))
        #expect(state.session?.showParsed == !(shown ?? true))
        #expect(Fixtures.keys(&state, .alt("8")) == [.handOver(.shell(title: "admin@10.0.0.5"))])
    }
}
