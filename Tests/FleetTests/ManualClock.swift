import Dispatch
import Fleet
import Foundation
import Synchronization

/// A clock that moves only when a test says so: timers that fall due fire on the thread calling `advance`, in the
/// order of their times, including timers their callbacks schedule meanwhile. Deadline tests never wait on wall time.
final class ManualClock: FleetClock {
    private struct State {
        var now = 0.0
        var nextID = 0
        var timers: [Int: (at: Double, action: @Sendable () -> Void)] = [:]
    }

    private let state = Mutex(State())

    func now() -> Double { state.withLock { $0.now } }

    func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> any FleetTimer {
        state.withLock { state in
            state.nextID += 1
            state.timers[state.nextID] = (state.now + max(0, seconds), action)
            return Timer(clock: self, id: state.nextID)
        }
    }

    /// Moves time forward by `seconds`, firing every timer that falls due on the way.
    func advance(by seconds: Double) {
        let end = state.withLock { $0.now + seconds }
        while true {
            let due = state.withLock { state -> (@Sendable () -> Void)? in
                guard let (id, timer) = state.timers.filter({ $0.value.at <= end })
                    .min(by: { ($0.value.at, $0.key) < ($1.value.at, $1.key) }) else { return nil }
                state.timers[id] = nil
                state.now = max(state.now, timer.at)
                return timer.action
            }
            guard let action = due else { break }
            action()
        }
        state.withLock { $0.now = end }
    }

    /// Timers scheduled and neither fired nor cancelled.
    var pending: Int { state.withLock { $0.timers.count } }

    fileprivate func cancel(_ id: Int) { state.withLock { _ = $0.timers.removeValue(forKey: id) } }

    private struct Timer: FleetTimer {
        let clock: ManualClock
        let id: Int
        func cancel() { clock.cancel(id) }
    }
}

/// Runs `body` on a thread of its own; `value` waits for what it returned.
final class Background<T: Sendable>: Sendable {
    private let result = Mutex<T?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> T) {
        Thread { [self] in
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }.start()
    }

    var value: T {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}

extension Recorder {
    /// Waits until `condition` holds for what was recorded. Wall time bounds only how long a broken test hangs
    /// (30 s); no deadline logic depends on it.
    func waitUntil(_ condition: ([String]) -> Bool) {
        let end = Date().addingTimeInterval(30)
        while !condition(all) && Date() < end { usleep(1_000) }
    }
}
