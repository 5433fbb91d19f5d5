@testable import Fleet
import Synchronization
import Testing

/// `Deadline` on the manual clock: exact instants, no waiting.
@Suite struct DeadlineTests {
    @Test func itFiresAtItsSecondsAndNotBefore() {
        let clock = ManualClock()
        let log = Recorder()
        let deadline = Deadline(clock: clock, seconds: 3) { log.add("expired at \(clock.now())") }
        clock.advance(by: 2.999)
        #expect(log.all.isEmpty)
        clock.advance(by: 0.001)
        #expect(log.all == ["expired at 3.0"])
        clock.advance(by: 100)
        #expect(log.all == ["expired at 3.0"])
        deadline.disarm()
    }

    @Test func theGraceReplacesThePendingDeadlineAndOnlyTheFirstCounts() {
        let clock = ManualClock()
        let log = Recorder()
        let deadline = Deadline(clock: clock, seconds: 60) { log.add("expired") }
        clock.advance(by: 1)
        deadline.startGrace(seconds: 2) { log.add("grace ended at \(clock.now())") }
        deadline.startGrace(seconds: 0.5) { log.add("second grace") }
        clock.advance(by: 100)
        #expect(log.all == ["grace ended at 3.0"])
    }

    @Test func disarmingStopsEverythingAndLetsGoOfTheCallbacks() {
        final class Canary: Sendable {}
        let clock = ManualClock()
        weak var weakCanary: Canary?
        let fired = Recorder()
        let deadline: Deadline = {
            let canary = Canary()
            weakCanary = canary
            return Deadline(clock: clock, seconds: 1) { _ = canary; fired.add("fired") }
        }()
        #expect(weakCanary != nil)
        deadline.disarm()
        #expect(weakCanary == nil)
        #expect(clock.pending == 0)
        deadline.startGrace(seconds: 1) { fired.add("grace") }
        clock.advance(by: 10)
        #expect(fired.all.isEmpty)
    }
}
