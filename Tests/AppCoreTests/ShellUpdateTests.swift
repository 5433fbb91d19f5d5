import Operations
import Foundation
import InteractiveShell
import SSH
import Testing
import TUIKit
@testable import AppCore

@Suite("The interactive shell: update")
struct ShellUpdateTests {
    @Test func theServersShellKeyConnectsThenHandsTheTerminalToAShell() {
        var state = Fixtures.loaded()
        #expect(Fixtures.keys(&state, .character("t")) == [.connect(ConnectionProfile(server: Fixtures.servers[0]),
                                                                    knownHosts: "")])
        #expect(state.connecting?.openShell == true)
        let effects = Update.update(&state, .connected(os: .linux, at: Fixtures.now))
        #expect(effects == [.recordConnection(name: "web1", os: .linux), .loadHistory("web1"),
                            .handOver(.shell(title: "admin@10.0.0.5"))])
        #expect(state.session?.closeAfterShell == true)
    }

    @Test func f8OnTheServersScreenDoesTheSameAndEnterStillOpensASession() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .function(8))
        #expect(state.connecting?.openShell == true)
        var plain = Fixtures.loaded()
        Fixtures.keys(&plain, .enter)
        #expect(plain.connecting?.openShell == false)
        let effects = Update.update(&plain, .connected(os: .linux, at: Fixtures.now))
        #expect(!effects.contains(.handOver(.shell(title: "admin@10.0.0.5"))))
    }

    @Test func aShellOpenedFromTheServersEndsItsSessionAndTheSummaryLeadsBackToTheServers() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("t"))
        _ = Update.update(&state, .connected(os: .linux, at: Fixtures.now))
        let outcome = ShellOutcome(end: .exited(CommandExit(status: 3, signal: nil)), duration: 65.4)
        #expect(Update.update(&state, .handedBack(.shell(outcome))) == [.disconnect])
        #expect(state.session == nil)
        #expect(state.screen.kind == .summary)
        let screen = Fixtures.screen(state).joined(separator: "\n")
        #expect(screen.contains("Shell on admin@10.0.0.5 ended."))
        #expect(screen.contains("Time of connection: 65 seconds"))
        #expect(screen.contains("Exit status: 3"))
        #expect(screen.contains("exited with status 3"))
        #expect(screen.contains("Servers"))
        #expect(Fixtures.keys(&state, .enter) == [.load])
        #expect(state.screen.kind == .servers)
    }

    @Test func f8InASessionOpensTheShellAndComesBackToTheSameSession() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "echo before")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array("before\n".utf8)))
        _ = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil, at: Fixtures.now))
        state.notice = "Piped the output into `wc -l`: exit 0."
        #expect(Fixtures.keys(&state, .function(8)) == [.handOver(.shell(title: "admin@10.0.0.5"))])
        #expect(state.session?.closeAfterShell == false)
        let outcome = ShellOutcome(end: .escape, duration: 2)
        #expect(Update.update(&state, .handedBack(.shell(outcome))) == [])
        #expect(state.screen.kind == .summary)
        let summary = Fixtures.screen(state).joined(separator: "\n")
        #expect(summary.contains("Disconnected from the shell on admin@10.0.0.5 (~.)."))
        #expect(summary.contains("Exit status: none"))
        #expect(summary.contains("Session"), "the key bar says where Enter goes")
        #expect(Fixtures.keys(&state, .enter) == [])
        #expect(state.screen.kind == .session)
        let screen = Fixtures.screen(state)
        #expect(screen.contains { $0.hasPrefix("before") }, "the session's output is still there")
        #expect(screen.contains { $0.contains("[shell · Disconnected from the shell") })
        #expect(state.notice == nil, "the notice from before the shell is gone")
    }

    @Test func aLostConnectionEndsTheSessionTheShellWasOpenedFrom() {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(8))
        let outcome = ShellOutcome(end: .connectionLost("The server went away."), duration: 9)
        #expect(Update.update(&state, .handedBack(.shell(outcome))) == [.disconnect])
        #expect(state.session == nil)
        #expect(state.summary?.session == nil, "the summary leads back to the servers")
        let screen = Fixtures.screen(state).joined(separator: "\n")
        #expect(screen.contains("was lost."))
        #expect(screen.contains("The session is closed."))
        Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .servers)
    }

    @Test func noShellWhileACommandRuns() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "sleep 10")
        Fixtures.keys(&state, .enter)
        #expect(Fixtures.keys(&state, .function(8)) == [])
        #expect(state.notice?.contains("still running") == true)
    }

    @Test func theShellKeysAreInTheKeyBarsAndHelp() {
        #expect(ServersAction.table.action(for: .character("t")) == .shell)
        #expect(SessionAction.table.action(for: .function(8)) == .shell)
        #expect(ServersAction.table.bindings.contains { $0.action == .shell && $0.label == "Shell" })
        var state = Fixtures.inSession(size: Size(width: 120, height: 30))
        #expect(Fixtures.screen(state).last?.contains("Shell") == true)
        Fixtures.keys(&state, .function(1))
        #expect(Fixtures.screen(state).joined().contains("Interactive shell on this session"))
    }
}
