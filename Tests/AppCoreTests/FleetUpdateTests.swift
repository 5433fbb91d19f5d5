import Operations
import Fleet
import Foundation
import Inventory
import Mail
import Testing
import TUIKit
@testable import AppCore

@Suite("Fleet: update")
struct FleetUpdateTests {
    @Test func spaceMarksAndMovesOnAndAgainUnmarks() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character(" "), .character(" "))
        #expect(state.fleet.marked == ["web1", "db-main"])
        #expect(state.list.selected == 2)
        Fixtures.keys(&state, .up, .character(" "))
        #expect(state.fleet.marked == ["web1"])
        #expect(Fixtures.screen(state)[0].contains("1 marked"))
    }

    @Test func tagFilterAndStarMarkExactlyTheTaggedServersAndStarAgainUnmarks() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("/"))
        Fixtures.type(&state, "tag:prod")
        Fixtures.keys(&state, .enter)
        #expect(state.visibleServers.map(\.name) == ["web1", "db-main"])
        Fixtures.keys(&state, .character("*"))
        #expect(state.fleet.marked == ["web1", "db-main"])
        Fixtures.keys(&state, .character("*"))
        #expect(state.fleet.marked.isEmpty)
    }

    @Test func tagFilterMatchesWholeTagsAndCombinesWithText() {
        var state = Fixtures.loaded()
        state.filter.setText("tag:we")
        #expect(state.visibleServers.isEmpty)
        state.filter.setText("tag:PROD db")
        #expect(state.visibleServers.map(\.name) == ["db-main"])
        state.filter.setText("prod")
        #expect(state.visibleServers.map(\.name) == ["web1", "db-main"])
    }

    @Test func xAsksForTheCommandAndRunsItOnTheMarkedServers() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character(" "), .down, .character(" "))
        #expect(state.fleet.marked == ["web1", "café-ünï"])
        Fixtures.keys(&state, .character("x"))
        #expect(Fixtures.screen(state).contains { $0.contains("Command to run on 2 servers at once") })
        Fixtures.type(&state, "uptime")
        let effects = Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .fleet)
        guard case .runFleet(let id, let targets, let command, _, let parallel, let timeout, let password, _)?
                = effects.first?.work else {
            Issue.record("expected runFleet, got \(effects)")
            return
        }
        #expect(targets.map(\.name) == ["web1", "café-ünï"])
        #expect(command == "uptime" && parallel == 64 && timeout == 60 && id == state.fleetRun?.id)
        #expect(password == nil)
    }

    @Test func onePasswordIsAskedMaskedWhenAChosenServerLogsInWithOne() {
        var state = Fixtures.loaded()
        state.servers[1].auth = .password
        state.servers[2].auth = .password
        Fixtures.keys(&state, .character("*"), .character("x"))
        Fixtures.type(&state, "id")
        // The password servers are checked first (host keys, login methods); nothing is asked yet.
        let check = Fixtures.keys(&state, .enter)
        guard case .checkFleetLogins(let id, let checked, _, _, _)? = check.first?.work else {
            Issue.record("expected checkFleetLogins, got \(check)")
            return
        }
        #expect(checked.count == 4)
        #expect(state.fleetQuestion?.kind == .checking(command: "id", count: 2))
        #expect(Fixtures.screen(state).contains { $0.contains("Checking the host keys of the 2 servers that log in") })
        Fixtures.type(&state, "typed while checking")
        #expect(state.fleetQuestion?.input.text == "")
        let unknown = FleetTarget.Problem(.hostKeyUnknown, "The host key of db-main is not known.")
        #expect(Update.update(&state, .fleetChecked(id: id, problems: [state.servers[1].name: unknown],
                                                    remaining: 1)).isEmpty)
        #expect(state.fleetQuestion?.kind == .password(command: "id", count: 1))
        Fixtures.type(&state, "s3cret")
        #expect(Fixtures.screen(state).contains { $0.contains("******") && !$0.contains("s3cret") })
        #expect(Fixtures.screen(state).contains { $0.contains("Password for the 1 server that logs in with one") })
        let effects = Fixtures.keys(&state, .enter)
        guard case .runFleet(_, let targets, "id", _, _, _, "s3cret", let problems)? = effects.first?.work else {
            Issue.record("expected runFleet with the password, got \(effects.count) effects")
            return
        }
        #expect(targets.count == 4)
        #expect(problems == [state.servers[1].name: unknown])
    }

    @Test func noPasswordIsAskedWhenNoPasswordServerIsLeftAfterTheCheck() {
        var state = Fixtures.loaded()
        state.servers[1].auth = .password
        Fixtures.keys(&state, .character("*"), .character("x"))
        Fixtures.type(&state, "id")
        guard case .checkFleetLogins(let id, _, _, _, _)? = Fixtures.keys(&state, .enter).first?.work else {
            Issue.record("expected checkFleetLogins")
            return
        }
        // A late answer of another check changes nothing.
        #expect(Update.update(&state, .fleetChecked(id: id + 5, problems: [:], remaining: 1)).isEmpty)
        let changed = FleetTarget.Problem(.hostKeyChanged, "changed")
        let effects = Update.update(&state, .fleetChecked(id: id, problems: [state.servers[1].name: changed],
                                                          remaining: 0))
        #expect(state.fleetQuestion == nil && state.screen.kind == .fleet)
        guard case .runFleet(_, _, "id", _, _, _, nil, let problems)? = effects.first?.work else {
            Issue.record("expected runFleet without a password, got \(effects)")
            return
        }
        #expect(problems == [state.servers[1].name: changed])
    }

    @Test func escWhileCheckingStopsTheCheckAndRunsNothing() {
        var state = Fixtures.loaded()
        state.servers[1].auth = .password
        Fixtures.keys(&state, .character("*"), .character("x"))
        Fixtures.type(&state, "id")
        _ = Fixtures.keys(&state, .enter)
        #expect(Fixtures.keys(&state, .escape) == [.cancelFleetCheck])
        #expect(state.fleetQuestion == nil && state.screen.kind == .servers)
        #expect(Update.update(&state, .fleetChecked(id: state.fleet.nextRunId, problems: [:], remaining: 1)).isEmpty)
        #expect(state.fleetQuestion == nil)
    }

    @Test func xWithNothingMarkedRunsOnTheSelectedServerAndEscCancelsTheQuestion() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .down, .character("x"))
        #expect(state.fleet.pendingNames == ["db-main"])
        Fixtures.keys(&state, .escape)
        #expect(state.fleetQuestion == nil && state.screen.kind == .servers)
    }

    @Test func resultsArrivingOneByOneInAnyOrderShowWhatGroupingThemAllAtOnceShows() {
        var run = FleetRun(id: 1, command: "x", names: (0..<40).map { "s\($0)" }, startedAt: Date())
        let outputs = ["a\u{1B}]0;t\u{07}\n", "b\nc\n", "", "a\u{1B}]0;t\u{07}\n"]
        var order = Array(0..<40)
        order.shuffle()
        for (n, i) in order.enumerated() {
            let status: FleetStatus = i % 7 == 0 ? .unreachable : .ok
            run.addResult(FleetResult(name: "s\(i)", status: status, exitStatus: status == .ok ? 0 : nil,
                                      duration: 0.1, stdout: Array(outputs[i % 4].utf8),
                                      error: status == .ok ? nil : "refused"), at: i)
            // After every arrival the screen's text is what grouping all results from scratch gives.
            let expected = FleetRun.sanitised(FleetReport.grouped(run.results))
            let lines = (run.grouped.firstLine..<run.grouped.endLine).map { run.grouped[$0] }
            #expect(lines == (expected.firstLine..<expected.endLine).map { expected[$0] }, "after \(n + 1)")
        }
    }

    @Test func aSecondEscWhileStoppingGoesBackWithoutWaitingForStuckServers() throws {
        var state = Fixtures.loaded(size: Size(width: 100, height: 30))
        let id = try run(&state, "uname", on: .all)
        _ = Update.update(&state, .fleetStarted(id: id, index: 0))
        #expect(Fixtures.keys(&state, .escape) == [.cancelFleet] && state.screen.kind == .fleet)
        #expect(Fixtures.screen(state).contains { $0.contains("Stopping the servers still running… (Esc again: back to the servers now)") })
        // The stuck server has not come back; Esc again leaves anyway, without cancelling twice.
        #expect(Fixtures.keys(&state, .escape).isEmpty)
        #expect(state.screen.kind == .servers)
        // Its late result still lands in the run.
        _ = Update.update(&state, .fleetResult(id: id, index: 0, FleetResult(
            name: "web1", status: .cancelled, duration: 1, error: "Cancelled.")))
        #expect(state.fleetRun?.results[0].status == .cancelled)
    }

    @Test func resultsFillTheRowsAndTheGroupedOutputAndEscStopsThenGoesBack() throws {
        var state = Fixtures.loaded(size: Size(width: 100, height: 30))
        let id = try run(&state, "uname", on: .all)
        _ = Update.update(&state, .fleetStarted(id: id, index: 0))
        let same = Array("Linux\u{1B}[2J\n".utf8)
        _ = Update.update(&state, .fleetResult(id: id, index: 1, FleetResult(
            name: "db-main", status: .ok, exitStatus: 0, duration: 0.1, stdout: same)))
        _ = Update.update(&state, .fleetResult(id: id, index: 2, FleetResult(
            name: "café-ünï", status: .ok, exitStatus: 0, duration: 0.2, stdout: same)))
        _ = Update.update(&state, .fleetResult(id: id, index: 3, FleetResult(
            name: "win-build", status: .unreachable, duration: 0.0, error: "refused")))
        // An old run's result is ignored.
        _ = Update.update(&state, .fleetResult(id: id + 7, index: 0, FleetResult(name: "web1", status: .ok)))
        var screen = Fixtures.screen(state)
        #expect(screen.contains { $0.hasPrefix("web1") && $0.contains("running") })
        #expect(screen.contains { $0.hasPrefix("db-main") && $0.contains("ok") })
        #expect(screen.contains { $0.hasPrefix("== db-main, café-ünï (2 servers) · ok (exit 0)") })
        #expect(screen.filter { $0.hasPrefix("Linux␛[2J") }.count == 1)
        // Esc while web1 runs stops it and stays; the runner's results then come back.
        let stop = Fixtures.keys(&state, .escape)
        #expect(stop == [.cancelFleet] && state.screen.kind == .fleet)
        _ = Update.update(&state, .fleetResult(id: id, index: 0, FleetResult(
            name: "web1", status: .cancelled, duration: 1, error: "Cancelled.")))
        _ = Update.update(&state, .fleetFinished(id: id, at: Fixtures.now.addingTimeInterval(2)))
        screen = Fixtures.screen(state)
        #expect(screen.contains { $0.contains("4 servers: 2 ok, 1 unreachable, 1 cancelled in 2.0 s") })
        // Enter opens the selected server's output; Esc back; Esc to the servers.
        Fixtures.keys(&state, .down, .enter)
        #expect(state.fleetRun?.detail == 1)
        #expect(Fixtures.screen(state).contains { $0.contains("db-main: ok (exit 0)") })
        Fixtures.keys(&state, .escape)
        #expect(state.fleetRun?.detail == nil)
        Fixtures.keys(&state, .escape)
        #expect(state.screen.kind == .servers)
        #expect(state.fleetRun?.report(now: Fixtures.now).contains("Command: uname") == true)
    }

    @Test func fleetSettingsAreCheckedAndStored() {
        var settings = Settings()
        #expect(settings.apply("0", to: "fleet.parallel") != nil)
        #expect(settings.apply("200", to: "fleet.parallel") == nil && settings.fleetParallel == 200)
        #expect(settings.apply("0.5", to: "fleet.timeout") != nil)
        #expect(settings.apply("90", to: "fleet.timeout") == nil)
        #expect(Settings(stored: settings.stored) == settings)
    }

    @Test func f6OpensTheMailFormOnceDoneAndSendsTheWholeReport() throws {
        var state = Fixtures.loaded()
        let id = try run(&state, "uptime", on: .selected)
        Fixtures.keys(&state, .function(6))
        #expect(state.outputTool == nil && state.notice?.contains("Still running") == true)
        _ = Update.update(&state, .fleetResult(id: id, index: 0, FleetResult(
            name: "web1", status: .ok, exitStatus: 0, duration: 0.1, stdout: Array("up 3 days\n".utf8))))
        _ = Update.update(&state, .fleetFinished(id: id, at: Fixtures.now))
        Fixtures.keys(&state, .function(6))
        #expect(state.outputTool?.text(1) == "essh: uptime on 1 server")
        #expect(Fixtures.screen(state).contains { $0.contains("Mail the output") })
        Fixtures.type(&state, "not an address")
        #expect(Fixtures.keys(&state, .enter).isEmpty && state.outputTool?.error != nil)
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "ops@example.org")
        let effects = Fixtures.keys(&state, .enter)
        guard case .sendMail(let mail, _)? = effects.first?.work else {
            Issue.record("expected sendMail, got \(effects)")
            return
        }
        #expect(mail.to == ["ops@example.org"] && mail.report == nil)
        let text = String(decoding: mail.output, as: UTF8.self)
        #expect(text.hasPrefix("Command: uptime\n1 server: 1 ok in 0.0 s\n"))
        #expect(text.hasSuffix("== web1 · ok (exit 0)\nup 3 days\n"))
        #expect(state.outputTool == nil)
    }

    @Test func pageKeysScrollTheGroupedOutputAndTheOpenedServersOutput() throws {
        var state = Fixtures.loaded()
        let id = try run(&state, "seq 100", on: .selected)
        let lines = (1...100).map(String.init).joined(separator: "\n") + "\n"
        _ = Update.update(&state, .fleetResult(id: id, index: 0, FleetResult(
            name: "web1", status: .ok, exitStatus: 0, duration: 0.1, stdout: Array(lines.utf8))))
        _ = Update.update(&state, .fleetFinished(id: id, at: Fixtures.now))
        Fixtures.keys(&state, .pageDown)
        #expect((state.fleetRun?.groupedView.top ?? 0) > 0)
        Fixtures.keys(&state, .home)
        #expect(state.fleetRun?.groupedView.top == 0)
        Fixtures.keys(&state, .enter, .end)
        #expect(Fixtures.screen(state).contains { $0.hasPrefix("100") })
        Fixtures.keys(&state, .home)
        #expect(Fixtures.screen(state)[1].hasPrefix("1 "))
    }

    @Test func leftAndRightScrollLongLinesSideways() throws {
        var state = Fixtures.loaded()
        let id = try run(&state, "long", on: .selected)
        let line = String(repeating: "a", count: 150) + "THE-END\n"
        _ = Update.update(&state, .fleetResult(id: id, index: 0, FleetResult(
            name: "web1", status: .ok, exitStatus: 0, duration: 0.1, stdout: Array(line.utf8))))
        _ = Update.update(&state, .fleetFinished(id: id, at: Fixtures.now))
        #expect(!Fixtures.screen(state).contains { $0.contains("THE-END") })
        Fixtures.keys(&state, .right, .right, .right)
        #expect(Fixtures.screen(state).contains { $0.contains("THE-END") })
        Fixtures.keys(&state, .left, .left, .left)
        #expect(state.fleetRun?.groupedView.left == 0)
        Fixtures.keys(&state, .enter)
        #expect(!Fixtures.screen(state).contains { $0.contains("THE-END") })
        Fixtures.keys(&state, .character("l"), .character("l"), .character("l"))
        #expect(Fixtures.screen(state).contains { $0.contains("THE-END") })
    }

    /// While a run goes the clock ticks (the header's time and the spinners move) and each server's output shows as
    /// it arrives: its latest line in the table, all of it (following the end) behind Enter.
    @Test func aRunningServerShowsItsOutputLiveAndTheClockMoves() throws {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        let id = try run(&state, "for i in 1 2 3; do echo line $i; sleep 1; done", on: .selected)
        #expect(state.tickInterval == .milliseconds(100))
        _ = Update.update(&state, .fleetStarted(id: id, index: 0))
        _ = Update.update(&state, .tick(Fixtures.now.addingTimeInterval(1.5)))
        #expect(Fixtures.screen(state)[0].hasSuffix("0/1 done · 1.5 s "))
        _ = Update.update(&state, .fleetOutput(id: id, index: 0, .stdout, Array("line 1\nline 2\nli".utf8)))
        var screen = Fixtures.screen(state)
        #expect(screen.contains { $0.hasPrefix("web1") && $0.contains("running") && $0.contains("1.5 s")
            && $0.trimmingCharacters(in: .whitespaces).hasSuffix(" li") }, "\(screen)")
        // Enter opens what came so far; what comes next is appended.
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .fleetOutput(id: id, index: 0, .stdout, Array("ne 3\n".utf8)))
        screen = Fixtures.screen(state)
        #expect(Array(screen[1...3]) == ["line 1", "line 2", "line 3"].map { $0.padding(toLength: 80,
                                                                                         withPad: " ",
                                                                                         startingAt: 0) })
        #expect(screen[22].contains("web1: running · 1.5 s"))
        // Another run's output, or output after the result, changes nothing.
        _ = Update.update(&state, .fleetOutput(id: id + 1, index: 0, .stdout, Array("other\n".utf8)))
        _ = Update.update(&state, .fleetResult(id: id, index: 0, FleetResult(
            name: "web1", status: .ok, exitStatus: 0, duration: 3.1, stdout: Array("line 1\nline 2\nline 3\n".utf8))))
        _ = Update.update(&state, .fleetOutput(id: id, index: 0, .stdout, Array("late\n".utf8)))
        #expect(!Fixtures.screen(state).contains { $0.contains("other") || $0.contains("late") })
        _ = Update.update(&state, .fleetFinished(id: id, at: Fixtures.now.addingTimeInterval(3.2)))
        #expect(state.tickInterval == nil)
    }

    /// At 80 columns a long command gives way (…), never the count of servers done and the clock.
    @Test func theHeaderKeepsTheCountAndTheClockAt80Columns() throws {
        var state = Fixtures.loaded()
        _ = try run(&state, "for i in 1 2 3 4 5; do echo line $i from $(hostname); sleep 1; done", on: .all)
        _ = Update.update(&state, .tick(Fixtures.now.addingTimeInterval(2.4)))
        let header = Fixtures.screen(state)[0]
        #expect(header.hasPrefix(" eSSH — Run: for i in 1 2 3 4 5; do echo line $i") && header.contains("…"))
        #expect(header.hasSuffix(" 0/4 done · 2.4 s "), "\(header)")
    }

    /// Servers a run logged in to show it in the list's Connected column at once, and it is stored.
    @Test func aFleetRunUpdatesConnectedForTheServersItLoggedInTo() throws {
        var state = Fixtures.loaded()
        let id = try run(&state, "true", on: .all)
        _ = Update.update(&state, .fleetResult(id: id, index: 1, FleetResult(
            name: "db-main", status: .failed, exitStatus: 1, duration: 0.2)))
        _ = Update.update(&state, .fleetResult(id: id, index: 3, FleetResult(
            name: "win-build", status: .unreachable, duration: 0.1, error: "refused")))
        let later = Fixtures.now.addingTimeInterval(600)
        let effects = Update.update(&state, .fleetFinished(id: id, at: later))
        #expect(effects == [.recordConnection(name: "db-main", os: nil)])
        #expect(state.servers.first { $0.name == "db-main" }?.lastConnectedAt == later)
        #expect(state.servers.first { $0.name == "win-build" }?.lastConnectedAt == nil)
        Fixtures.keys(&state, .escape)
        let row = Fixtures.screen(state).first { $0.contains("db-main") } ?? ""
        #expect(row.hasSuffix("just now  "), "\(row)")
    }

    enum Marking { case all, selected }

    /// Marks all shown servers (`*`) or the selected one (Space), presses x, types `command`, Enter: the run's id.
    private func run(_ state: inout AppState, _ command: String, on marking: Marking) throws -> Int {
        Fixtures.keys(&state, .character(marking == .all ? "*" : " "), .character("x"))
        Fixtures.type(&state, command)
        Fixtures.keys(&state, .enter)
        return try #require(state.fleetRun?.id)
    }
}
