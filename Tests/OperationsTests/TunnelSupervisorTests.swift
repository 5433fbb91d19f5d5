import Forwarding
import Foundation
import Inventory
import SSH
import Synchronization
import Testing
@testable import Operations

/// Saved tunnels: one rule for their text, the backoff schedule, and the supervisor's states with a fake link and a
/// clock that does not wait.
@Suite struct SavedTunnelsTests {
    @Test func savedFormsAreReadByTheParserOfLRAndDAndSpelledOneWay() throws {
        #expect(try SavedTunnels.normalised("L:5432:localhost:5432") == "L:5432:localhost:5432")
        #expect(try SavedTunnels.normalised(" d:1080 ") == "D:1080")
        #expect(try SavedTunnels.normalised("R:*:8080:localhost:80") == "R:*:8080:localhost:80")
        #expect(try SavedTunnels.normalised("L:[::1]:8080:[fd00::5]:80") == "L:[::1]:8080:[fd00::5]:80")
        #expect(try SavedTunnels.normalised(["D:1080", "d:1080", "L:1:h:2"]) == ["D:1080", "L:1:h:2"])
        let spec = try ForwardSpecParser.parseSaved("L:127.0.0.1:5432:db:5432")
        #expect(spec.kind == .local && spec.bindAddress == "127.0.0.1" && spec.host == "db" && spec.hostPort == 5432)
        #expect(SavedTunnels.isNone("None") && !SavedTunnels.isNone("D:1"))
    }

    @Test func badSavedFormsSayWhyInTheParsersWords() {
        func message(_ text: String) -> String {
            do throws(ForwardError) {
                _ = try SavedTunnels.normalised(text)
                return ""
            } catch {
                return error.message
            }
        }
        #expect(message("5432:localhost:5432").contains("is not a forward: give L:[bind:]port:host:hostport"))
        #expect(message("X:1080").contains("is not a forward"))
        #expect(message("L:99999:db:1") == "-L 99999:db:1: the port to listen on “99999” is not a port (a number from "
                + "0 (any free port) to 65535).")
        #expect(message("D:db:1:2").contains("-D takes [bind:]port"))
        #expect(message("L:8080").contains("a target is missing"))
    }

    @Test func aServersTunnelsAreItsForwardsReadAgain() {
        let server = Server(id: 1, name: "db1", host: "h", port: 22, user: nil, auth: .agent, keyPath: nil, os: .auto,
                            tags: [], note: "", createdAt: Date(), updatedAt: Date(), lastConnectedAt: nil,
                            forwards: ["L:1:h:2", "L:oops"])
        let tunnels = SavedTunnels.tunnels(of: server)
        #expect(tunnels.map(\.id) == [TunnelID(server: "db1", forward: "L:1:h:2"),
                                      TunnelID(server: "db1", forward: "L:oops")])
        if case .success = tunnels[0].spec {} else { Issue.record("the first reads") }
        if case .failure = tunnels[1].spec {} else { Issue.record("the second does not") }
    }

    @Test func theBackoffDoublesUpToItsCapWithJitterEitherWay() {
        let schedule = ReconnectSchedule(first: 1, factor: 2, cap: 60, jitter: 0.2)
        #expect((1...8).map { schedule.delay(attempt: $0, unit: 0.5) } == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(schedule.delay(attempt: 1, unit: 0) == 0.8)
        #expect(abs(schedule.delay(attempt: 3, unit: 0.999_999) - 4.8) < 0.001)
        #expect(schedule.delay(attempt: 1000, unit: 1) <= 72)
        #expect(schedule.delay(attempt: 0, unit: 0.5) == 1)
        #expect(ReconnectSchedule(jitter: 2).delay(attempt: 1, unit: 0) == 0, "never negative")
    }
}

/// A link whose session is lost when the test says so.
final class FakeLink: TunnelLink {
    private let state = Mutex((lost: false, closed: false, figures: TunnelFigures()))
    let listening: String? = "127.0.0.1:5432"

    var figures: TunnelFigures { state.withLock { $0.figures } }
    var closed: Bool { state.withLock { $0.closed } }

    func add(bytesOut: Int, bytesIn: Int, open: Int) {
        state.withLock {
            $0.figures.bytesOut += bytesOut
            $0.figures.bytesIn += bytesIn
            $0.figures.openConnections = open
            $0.figures.connections += 1
        }
    }

    func lose() { state.withLock { $0.lost = true } }

    func run(until cancel: Cancellation) -> Forwarder.Ending {
        while true {
            if cancel.isCancelled { return .stopped(openConnections: figures.openConnections) }
            if state.withLock({ $0.lost }) {
                return .lost(SSHError(.disconnected, "eof", "The connection to db1 was closed."))
            }
            usleep(2_000)
        }
    }

    func close() -> Int {
        state.withLock { $0.closed = true }
        return 0
    }
}

/// A clock whose waits return at once, recording them.
final class InstantClock: TunnelClock {
    private let waits = Mutex<[Double]>([])
    var waited: [Double] { waits.withLock { $0 } }
    func now() -> Double { 100 }
    func wait(_ seconds: Double, cancel: Cancellation) -> Bool {
        waits.withLock { $0.append(seconds) }
        return !cancel.isCancelled
    }
    func random() -> Double { 0.5 }
}

/// What the fake opener does on each attempt, in order; then the last again.
final class ScriptedOpener: Sendable {
    enum Step: Sendable { case link, fail(TunnelFailure) }
    private let state: Mutex<(steps: [Step], links: [FakeLink], attempts: Int)>

    init(_ steps: [Step]) { state = Mutex((steps, [], 0)) }

    var links: [FakeLink] { state.withLock { $0.links } }
    var attempts: Int { state.withLock { $0.attempts } }

    var opener: TunnelOpener {
        { _, _, _ throws(TunnelFailure) in
            let step = self.state.withLock { s -> Step in
                s.attempts += 1
                return s.steps.count > 1 ? s.steps.removeFirst() : s.steps[0]
            }
            switch step {
            case .fail(let failure): throw failure
            case .link:
                let link = FakeLink()
                self.state.withLock { $0.links.append(link) }
                return link
            }
        }
    }
}

/// Records the states a tunnel went through.
final class StateLog: Sendable {
    private let states = Mutex<[TunnelStatus.State]>([])
    var all: [TunnelStatus.State] { states.withLock { $0 } }
    func add(_ status: TunnelStatus) { states.withLock { $0.append(status.state) } }

    func wait(_ what: String, _ test: (TunnelStatus.State) -> Bool) -> Bool {
        for _ in 0..<500 {
            if all.contains(where: test) { return true }
            usleep(10_000)
        }
        Issue.record("never \(what): \(all)")
        return false
    }
}

@Suite struct TunnelSupervisorTests {
    let id = TunnelID(server: "db1", forward: "L:5432:localhost:5432")

    @Test func aDroppedSessionReconnectsAfterTheBackoffAndTheFiguresAddUp() throws {
        let script = ScriptedOpener([.link])
        let clock = InstantClock()
        let log = StateLog()
        let supervisor = TunnelSupervisor(clock: clock, opener: script.opener, onChange: log.add)
        supervisor.start(id)
        #expect(log.wait("up") { $0 == .up })
        script.links[0].add(bytesOut: 100, bytesIn: 1000, open: 1)
        #expect(supervisor.status(id)?.openConnections == 1)
        script.links[0].lose()
        #expect(log.wait("reconnecting") {
            if case .reconnecting(_, 1, let reason) = $0 { return reason.contains("connection was lost") }
            return false
        })
        for _ in 0..<500 where script.links.count < 2 { usleep(10_000) }
        #expect(script.links.count == 2 && script.links[0].closed)
        for _ in 0..<500 where supervisor.status(id)?.state != .up { usleep(10_000) }
        script.links[1].add(bytesOut: 1, bytesIn: 10, open: 0)
        let status = try #require(supervisor.status(id))
        #expect(status.state == .up)
        #expect(status.bytesOut == 101 && status.bytesIn == 1010 && status.connections == 2)
        #expect(status.listening == "127.0.0.1:5432")
        #expect(clock.waited == [1])
        #expect(supervisor.stopAll() == 1)
        #expect(supervisor.status(id)?.state == .stopped)
        #expect(script.links[1].closed)
        #expect(supervisor.runningCount == 0)
    }

    @Test func failuresThatMayPassAreRetriedWithGrowingWaits() {
        let script = ScriptedOpener([.fail(TunnelFailure("refused", retry: true)),
                                     .fail(TunnelFailure("refused", retry: true)),
                                     .fail(TunnelFailure("refused", retry: true)), .link])
        let clock = InstantClock()
        let log = StateLog()
        let supervisor = TunnelSupervisor(clock: clock, opener: script.opener, onChange: log.add)
        supervisor.start(id)
        #expect(log.wait("up") { $0 == .up })
        #expect(clock.waited == [1, 2, 4])
        #expect(log.all.contains(.reconnecting(seconds: 4, attempt: 3, reason: "refused")))
        #expect(log.all.contains(.starting(attempt: 3)))
        supervisor.stop(id)
        #expect(supervisor.status(id)?.state == .stopped)
    }

    @Test func aFailureThatWouldNotPassEndsInFailedWithItsReason() {
        let script = ScriptedOpener([.fail(TunnelFailure("127.0.0.1:5432 is already in use", retry: false))])
        let log = StateLog()
        let supervisor = TunnelSupervisor(clock: InstantClock(), opener: script.opener, onChange: log.add)
        supervisor.start(id)
        #expect(log.wait("failed") { $0 == .failed("127.0.0.1:5432 is already in use") })
        usleep(50_000)
        #expect(script.attempts == 1)
        #expect(supervisor.runningCount == 0)
        #expect(supervisor.stopAll() == 0)
    }

    @Test func aForwardTheParserRefusesFailsWithoutConnecting() {
        let script = ScriptedOpener([.link])
        let supervisor = TunnelSupervisor(clock: InstantClock(), opener: script.opener)
        let bad = TunnelID(server: "db1", forward: "L:8080")
        supervisor.start(bad)
        guard case .failed(let reason)? = supervisor.status(bad)?.state else {
            Issue.record("not failed: \(String(describing: supervisor.status(bad)))")
            return
        }
        #expect(reason.contains("a target is missing"))
        #expect(script.attempts == 0)
    }

    @Test func restartOpensANewSessionAndForgetDropsTheTunnel() {
        let script = ScriptedOpener([.link])
        let log = StateLog()
        let supervisor = TunnelSupervisor(clock: InstantClock(), opener: script.opener, onChange: log.add)
        supervisor.start(id)
        #expect(log.wait("up") { $0 == .up })
        supervisor.start(id)  // running already: nothing
        supervisor.restart(id)
        for _ in 0..<500 where script.links.count < 2 { usleep(10_000) }
        #expect(script.links.count == 2 && script.links[0].closed)
        supervisor.forget(id)
        #expect(supervisor.snapshot().isEmpty)
        #expect(script.links[1].closed)
    }

    @Test func theStateSaysItselfInAFewWords() {
        #expect(TunnelStatus.State.reconnecting(seconds: 3, attempt: 2, reason: "x").text
                == "reconnecting in 3 s (attempt 2)")
        #expect(TunnelStatus.State.failed("port in use").text == "failed: port in use")
        #expect(TunnelStatus.State.starting(attempt: 0).text == "starting")
        #expect(TunnelStatus.State.up.isRunning && !TunnelStatus.State.stopped.isRunning)
    }
}
