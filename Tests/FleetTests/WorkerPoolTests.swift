import Dispatch
import Foundation
@testable import Fleet
import Synchronization
import Testing

@Suite struct WorkerPoolTests {
    @Test func everyIndexRunsOnceWithAtMostWidthAtATime() {
        let gauge = Gauge()
        let seen = Recorder()
        WorkerPool(count: 30, stopWhen: { false }) { i, _ in
            gauge.enter()
            seen.add(String(i))
            usleep(1_000)
            gauge.leave()
            return true
        }.run(width: 4)
        #expect(seen.all.sorted() == (0..<30).map(String.init).sorted())
        #expect(gauge.maximum <= 4)
    }

    @Test func noIndexIsTakenOnceStopped() {
        let stopped = Mutex(false)
        let seen = Recorder()
        WorkerPool(count: 10, stopWhen: { stopped.withLock { $0 } }) { i, _ in
            seen.add(String(i))
            if i == 2 { stopped.withLock { $0 = true } }
            return true
        }.run(width: 1)
        #expect(seen.all == ["0", "1", "2"])
    }

    @Test func aJobGivenUpOnIsReplacedAndNotWaitedFor() {
        let release = DispatchSemaphore(value: 0)
        let seen = Recorder()
        WorkerPool(count: 3, stopWhen: { false }) { i, pool in
            seen.add(String(i))
            guard i == 0 else { return true }
            // Given up on: a fresh thread takes the slot, and this one ends only after `run` has returned.
            pool.replace()
            release.wait()
            return false
        }.run(width: 1)
        #expect(seen.all == ["0", "1", "2"])
        release.signal()
    }

    @Test func noIndicesStillEnds() {
        WorkerPool(count: 0, stopWhen: { false }) { _, _ in true }.run(width: 8)
    }
}
