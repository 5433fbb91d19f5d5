import Foundation
import NetParsers
import InteractiveShell
import SSH
import Testing
import TUIKit
@testable import AppCore

@Suite("Connecting and sessions: update")
struct SessionUpdateTests {
    /// As OpenSSH, a new host key is trusted only by a typed answer: Enter alone (or any other word) answers
    /// nothing; `yes` (or the fingerprint) saves it, `once` trusts it this time, `no` and Esc refuse.
    @Test func anUnknownHostKeyIsTrustedOnlyByTypingYes() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connectStage("Verifying the host key"))
        #expect(state.connecting?.stage == "Verifying the host key")
        _ = Update.update(&state, .prompt(PromptRequest(id: 7, kind: .hostKey(host: "10.0.0.5", port: 22,
                                                                              type: "ssh-ed25519",
                                                                              fingerprint: "SHA256:abc"))))
        #expect(state.prompt?.message.contains("SHA256:abc") == true && state.prompt?.input.isMasked == false)
        #expect(Fixtures.keys(&state, .enter).isEmpty, "Enter alone trusts nothing")
        #expect(Fixtures.screen(state).contains { $0.contains("Type yes, once or no") })
        Fixtures.type(&state, "y")
        #expect(Fixtures.keys(&state, .enter).isEmpty, "nor does y")
        Fixtures.type(&state, "es")
        #expect(Fixtures.keys(&state, .enter) == [.answer(id: 7, .hostKey(.acceptAndSave))])
        #expect(state.prompt == nil)
        for (typed, decision) in [("once", HostKeyDecision.acceptOnce), ("NO", .reject), ("SHA256:abc", .acceptAndSave)] {
            _ = Update.update(&state, .prompt(PromptRequest(id: 8, kind: .hostKey(host: "h", port: 22, type: "t",
                                                                                  fingerprint: "SHA256:abc"))))
            Fixtures.type(&state, typed)
            #expect(Fixtures.keys(&state, .enter) == [.answer(id: 8, .hostKey(decision))], "\(typed)")
        }
        _ = Update.update(&state, .prompt(PromptRequest(id: 9, kind: .hostKey(host: "h", port: 22, type: "t",
                                                                              fingerprint: "f"))))
        #expect(Fixtures.keys(&state, .escape) == [.answer(id: 9, .hostKey(.reject))])
    }

    @Test func theHostKeyQuestionSaysWhenTheKeyIsKnownUnderAnotherName() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .prompt(PromptRequest(id: 7, kind: .hostKey(
            host: "web1.example", port: 22, type: "ssh-ed25519", fingerprint: "SHA256:abc",
            alsoKnownAs: ["10.0.0.5", "web1", "[web1]:2222", "a hashed name"]))))
        #expect(state.prompt?.message.hasSuffix("This key is already known as 10.0.0.5, web1, [web1]:2222 and 1 more.")
                    == true, "\(state.prompt?.message ?? "")")
    }

    @Test func passwordIsTypedIntoAMaskedField() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .prompt(PromptRequest(id: 3, kind: .password(user: "admin", host: "web1",
                                                                              attempt: 1))))
        #expect(state.prompt?.input.isMasked == true)
        Fixtures.type(&state, "s3cret")
        #expect(Fixtures.screen(state).joined().contains("******"))
        #expect(!Fixtures.screen(state).joined().contains("s3cret"))
        #expect(Fixtures.keys(&state, .enter) == [.answer(id: 3, .text(["s3cret"]))])
        #expect(state.prompt == nil)
    }

    @Test func aFailedConnectionSaysWhyAndReturnsToTheServers() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connectFailed("10.0.0.5 refused the connection on port 22."))
        #expect(state.screen.kind == .servers)
        #expect(state.dialog?.message == "admin@10.0.0.5: 10.0.0.5 refused the connection on port 22.")
        Fixtures.keys(&state, .enter)
        #expect(state.dialog == nil)
    }

    /// Esc while connecting goes straight back, with no dialog to dismiss; what the given-up connection still sends
    /// (a stage, a question, its "Cancelled.") is dropped, and the next connection is shown as usual.
    @Test func escWhileConnectingGoesBackAndDropsWhatTheConnectionStillSends() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        #expect(Fixtures.keys(&state, .escape) == [.cancelConnect])
        #expect(state.screen.kind == .servers && state.overlays.isEmpty)
        #expect(state.notice == "Stopped connecting to admin@10.0.0.5.")
        _ = Update.update(&state, .connectStage("Logging in (password)"))
        let asked = Update.update(&state, .prompt(PromptRequest(id: 4, kind: .password(user: "admin", host: "web1",
                                                                                         attempt: 1))))
        #expect(asked == [.answer(id: 4, .text(nil))])
        #expect(Update.update(&state, .connectFailed("Cancelled.")).isEmpty)
        #expect(state.screen.kind == .servers && state.dialog == nil && state.prompt == nil)
        // The next connection: its failure is said.
        Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .connecting)
        _ = Update.update(&state, .connectFailed("10.0.0.5 refused the connection on port 22."))
        #expect(state.dialog?.message == "admin@10.0.0.5: 10.0.0.5 refused the connection on port 22.")
    }

    /// A given-up connection that logged in anyway is closed, unless a newer one is under way (closing then would
    /// stop the newer one; the worker closes the old session before it opens the next).
    @Test func aGivenUpConnectionThatOpenedIsClosedUnlessANewerOneIsUnderWay() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter, .escape)
        #expect(Update.update(&state, .connected(os: .linux, at: Fixtures.now)) == [.disconnect])
        #expect(state.screen.kind == .servers)
        Fixtures.keys(&state, .enter, .escape, .enter)
        #expect(state.screen.kind == .connecting)
        #expect(Update.update(&state, .connected(os: .linux, at: Fixtures.now)).isEmpty)
        #expect(state.screen.kind == .connecting)
        #expect(Update.update(&state, .connected(os: .linux, at: Fixtures.now)).contains(.loadHistory("web1")))
        #expect(state.screen.kind == .session)
    }

    @Test func connectingOpensTheSessionAndRecordsIt() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        let effects = Update.update(&state, .connected(os: .linux, at: Fixtures.now))
        #expect(state.screen.kind == .session)
        #expect(state.session?.os == "linux")
        #expect(effects == [.recordConnection(name: "web1", os: .linux), .loadHistory("web1")])
    }

    @Test func aCommandRunsStreamsAndEndsWithItsStatusAndDuration() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "echo héllo")
        #expect(Fixtures.keys(&state, .enter) == [.run(id: 1, command: "echo héllo")])
        #expect(state.session?.input.text == "")
        _ = Update.update(&state, .output(id: 1, bytes: Array("h\u{1B}[31mé".utf8)))
        _ = Update.update(&state, .output(id: 1, bytes: Array("llo\n\u{1B}]52;c;aGk=\u{07}\n".utf8)))
        #expect(Fixtures.keys(&state, .enter).isEmpty, "an empty line runs nothing")
        let effects = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil,
                                                             at: Fixtures.now.addingTimeInterval(83.25)))
        #expect(effects == [.appendHistory(server: "web1", command: "echo héllo", status: 0)])
        let session = try! #require(state.session)
        let lines = (session.scrollback.firstLine..<session.scrollback.endLine).compactMap { session.scrollback[$0] }
        // Colours are dropped; a clipboard-setting sequence is shown, never passed to the terminal.
        #expect(lines.suffix(4) == ["$ echo héllo", "héllo", "␛]52;c;aGk=␇", "[exit 0 · 0.25 s]"])
        #expect(session.commandsRun == 1)
    }

    @Test func theHeaderSaysHowCommandsRunAndGivesWayFirstWhenShort() {
        var state = Fixtures.inSession()
        #expect(!Fixtures.screen(state)[0].contains("shell:"))
        _ = Update.update(&state, .shellMode(.persistent, notice: nil))
        #expect(Fixtures.screen(state)[0].hasSuffix("shell: persistent  connected 00:01:23 "), "\(Fixtures.screen(state)[0])")
        _ = Update.update(&state, .shellMode(.onePerCommand(reason: "r"), notice: nil))
        #expect(Fixtures.screen(state)[0].hasSuffix("shell: one per command  connected 00:01:23 "))
        var narrow = Fixtures.inSession(size: Size(width: 50, height: 24))
        _ = Update.update(&narrow, .shellMode(.onePerCommand(reason: "r"), notice: nil))
        let header = Fixtures.screen(narrow)[0]
        #expect(!header.contains("shell:") && header.hasSuffix("connected 00:01:23 "), "\(header)")
    }

    /// A notice (the shell was replaced, or there is none that lasts) is a line of the output, after the result
    /// line, with what the server said shown and not obeyed.
    @Test func aShellNoticeIsALineOfTheOutputShownNotObeyed() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "exit 3")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array("bye".utf8)))
        _ = Update.update(&state, .commandFinished(id: 1, status: 3, signal: nil, at: Fixtures.now))
        _ = Update.update(&state, .shellMode(.persistent, notice: "The shell ended (exit 3): a new one started; "
                                             + "\u{1B}[2J reset"))
        let session = try! #require(state.session)
        let lines = (session.scrollback.firstLine..<session.scrollback.endLine).compactMap { session.scrollback[$0] }
        #expect(lines.suffix(3) == ["bye", "[exit 3 · 0.00 s]",
                                    "[The shell ended (exit 3): a new one started; ␛[2J reset]"],
                "\(lines)")
        #expect(session.shellMode == .persistent)
    }

    /// A notice that comes while an interactive shell's summary is shown (the shell was replaced meanwhile) goes to
    /// the session the summary keeps, and the header says the mode once the session is back.
    @Test func aShellNoticeUnderTheShellsSummaryReachesTheKeptSession() {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(8))
        _ = Update.update(&state, .handedBack(.shell(ShellOutcome(end: .escape, duration: 2))))
        #expect(state.screen.kind == .summary)
        _ = Update.update(&state, .shellMode(.onePerCommand(reason: "r"), notice: "no new one"))
        #expect(state.screen.kind == .summary)
        Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .session)
        #expect(state.session?.shellMode == .onePerCommand(reason: "r"))
        #expect(Fixtures.screen(state)[0].contains("shell: one per command"), "\(Fixtures.screen(state)[0])")
        #expect(Fixtures.screen(state).contains { $0.contains("[no new one]") })
    }

    @Test func escStopsTheRunningCommandAndLateOutputIsIgnored() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "sleep 100")
        Fixtures.keys(&state, .enter)
        Fixtures.type(&state, "ls")
        #expect(Fixtures.keys(&state, .enter).isEmpty, "one command at a time")
        #expect(state.notice == "A command is still running: Esc stops it.")
        #expect(Fixtures.keys(&state, .escape) == [.cancelCommand])
        _ = Update.update(&state, .commandFailed(id: 1, message: "stopped (Esc)", connectionLost: false,
                                                 at: Fixtures.now.addingTimeInterval(90)))
        #expect(state.session?.running == nil)
        #expect(state.session?.lastResult?.hasPrefix("stopped (Esc)") == true)
        _ = Update.update(&state, .output(id: 1, bytes: Array("late".utf8)))
        #expect(state.session?.scrollback[state.session!.scrollback.endLine - 1] == "[stopped (Esc) · 7.00 s]")
    }

    @Test func upAndDownWalkTheHistory() {
        var state = Fixtures.inSession()
        _ = Update.update(&state, .history(["uptime", "df -h"]))
        Fixtures.type(&state, "draft")
        Fixtures.keys(&state, .up)
        #expect(state.session?.input.text == "df -h")
        Fixtures.keys(&state, .up, .up)
        #expect(state.session?.input.text == "uptime")
        Fixtures.keys(&state, .down)
        #expect(state.session?.input.text == "df -h")
        Fixtures.keys(&state, .down)
        #expect(state.session?.input.text == "draft")
    }

    @Test func theDetectedSystemChoosesTheQuickCommandsAndAnUnknownOneIsLeftToThemToDetect() {
        var unknown = Fixtures.loaded()
        Fixtures.quickConnect(&unknown, "10.1.2.3")
        _ = Update.update(&unknown, .connected(os: nil, at: Fixtures.now))
        #expect(unknown.session?.os == "unknown OS")
        #expect(Fixtures.keys(&unknown, .function(3)) == [.runQuick(id: 1, kind: .routes, os: .auto)])

        var bsd = Fixtures.loaded()
        Fixtures.quickConnect(&bsd, "10.1.2.4")
        _ = Update.update(&bsd, .connected(os: .bsd, at: Fixtures.now))
        #expect(bsd.session?.os == "bsd")
        #expect(Fixtures.keys(&bsd, .function(3)) == [.runQuick(id: 1, kind: .routes, os: .bsd)])
    }

    @Test func quickCommandsShowATableAndF5FlipsToRaw() {
        var state = Fixtures.inSession()
        #expect(Fixtures.keys(&state, .function(3)) == [.runQuick(id: 1, kind: .routes, os: .linux)])
        let table = Table(columns: [.init("DESTINATION"), .init("GATEWAY")], rows: [["default", "192.0.2.1"]])
        _ = Update.update(&state, .quickFinished(id: 1, result: QuickResult(kind: .routes, commandLine: "ip route",
                                                                           table: table, error: nil),
                                                 at: Fixtures.now.addingTimeInterval(84)))
        #expect(state.session?.quick?.table == table)
        #expect(Fixtures.screen(state).contains { $0.contains("default") && $0.contains("192.0.2.1") })
        Fixtures.keys(&state, .function(5))
        #expect(state.session?.showParsed == false)
        #expect(!Fixtures.screen(state).contains { $0.contains("GATEWAY") })
        Fixtures.keys(&state, .function(5), .escape)
        #expect(state.session?.quick == nil)
    }

    @Test func f10EndsTheSessionWithTheTimeOfConnection() {
        var state = Fixtures.inSession()
        let effects = Fixtures.keys(&state, .function(10))
        #expect(effects == [.disconnect])
        #expect(state.screen.kind == .summary)
        #expect(state.summary?.seconds == 83)
        #expect(Fixtures.screen(state).contains { $0.contains("Time of connection: 83 seconds") })
        #expect(Fixtures.keys(&state, .enter) == [.load])
        #expect(state.screen.kind == .servers)
    }

    @Test func aConnectionLostUnderACommandKeepsTheSessionAndItsOutputAndF10EndsItWithTheReason() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "reboot")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array("going down\n".utf8)))
        let lost = Message.commandFailed(id: 1, message: "The connection to web1 broke.", connectionLost: true,
                                         at: Fixtures.now.addingTimeInterval(95))
        let effects = Update.update(&state, lost)
        #expect(effects == [.disconnect])
        #expect(state.screen.kind == .session)
        #expect(state.session?.link == .lost("The connection to web1 broke."))
        let screen = Fixtures.screen(state)
        #expect(screen.contains("going down" + String(repeating: " ", count: 70)))
        #expect(screen.contains { $0.hasPrefix("[connection lost: The connection to web1 broke.]") })
        #expect(screen[0].hasSuffix("disconnected "))
        #expect(screen[21].contains("Connection lost · r reconnects"))
        Fixtures.keys(&state, .function(10))
        #expect(state.summary?.seconds == 95)
    }

    @Test func wheelAndPageKeysScrollTheOutput() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "seq 100")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array((1...100).map { "\($0)\n" }.joined().utf8)))
        _ = Update.update(&state, .input(.wheelUp))
        #expect(state.session?.view.follow == false)
        Fixtures.keys(&state, .end)
        #expect(state.session?.view.follow == true)
        Fixtures.keys(&state, .pageUp)
        #expect(Fixtures.screen(state)[1].hasPrefix("6"))
    }
}

@Suite("Sessions: keepalive")
struct KeepaliveUpdateTests {
    @Test func anIdleSessionChecksItsConnectionEverySecondAndSaysAtOnceWhenItIsLost() {
        var state = Fixtures.inSession()
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(90))) == [.keepalive])
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(91))) == [.keepalive])
        Fixtures.type(&state, "sleep 60")
        Fixtures.keys(&state, .enter)
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(120))).isEmpty,
                "a running command keeps the connection busy by itself")
        _ = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil, at: Fixtures.now))
        let effects = Update.update(&state, .connectionLost("The server closed the connection.",
                                                            at: Fixtures.now.addingTimeInterval(100)))
        #expect(effects == [.disconnect])
        #expect(state.screen.kind == .session)
        #expect(state.session?.link == .lost("The server closed the connection."))
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(101))).isEmpty,
                "a lost connection is not checked again")
        #expect(Update.update(&state, .connectionLost("again", at: Fixtures.now)).isEmpty, "said once")
    }
}
