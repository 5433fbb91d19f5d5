import Dispatch
import Foundation
import Synchronization

/// Time as the fleet runner sees it: the current instant and callbacks after a delay. The runner uses
/// `SystemFleetClock`; tests give it a manual clock they advance by hand, so deadline logic never waits on wall time.
public protocol FleetClock: Sendable {
    /// Seconds since a fixed point of this clock; never goes back.
    func now() -> Double
    /// Calls `action` once, `seconds` from now, unless the returned timer is cancelled first. Never calls it from
    /// inside `schedule` itself (callers may hold a lock).
    func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> any FleetTimer
}

/// A callback scheduled on a `FleetClock`.
public protocol FleetTimer: Sendable {
    /// Stops the callback if it has not run yet.
    func cancel()
}

/// The real clock: the monotonic clock, and timers on a global dispatch queue.
public struct SystemFleetClock: FleetClock {
    public init() {}

    public func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> any FleetTimer {
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + max(0, seconds))
        source.setEventHandler(handler: action)
        source.resume()
        return DispatchTimer(source: source)
    }

    private struct DispatchTimer: FleetTimer, @unchecked Sendable {
        // @unchecked: DispatchSourceTimer is not marked Sendable, but cancel() is documented as safe from any thread.
        let source: DispatchSourceTimer
        func cancel() { source.cancel() }
    }
}

/// One target's deadline: `onExpiry` runs when its seconds have passed, unless disarmed first; `startGrace` then
/// (or after a cancel) arms a second, shorter wait for a target that has been told to stop. What each moment means
/// is decided by the target's `TargetLifecycle`, not here. `disarm()` drops both callbacks at once, and with them
/// whatever they hold (the target's cancellation pipe), so a finished target's descriptors close then rather than
/// when its full timeout would have ended: with hundreds of quick targets those pipes would exhaust the descriptors.
final class Deadline: Sendable {
    private struct State {
        var timer: (any FleetTimer)?
        var action: (@Sendable () -> Void)?
        var graceStarted = false
        var disarmed = false
        /// Which timer is current: a timer cancelled while its callback was already on its way does nothing.
        var generation = 0
    }

    private let clock: any FleetClock
    private let state = Mutex(State())

    /// Arms the deadline `seconds` from now on `clock`.
    init(clock: any FleetClock, seconds: Double, onExpiry: @escaping @Sendable () -> Void) {
        self.clock = clock
        state.withLock { state in
            state.action = onExpiry
            state.timer = clock.schedule(after: seconds) { [weak self] in self?.fire(0) }
        }
    }

    /// Replaces the deadline (passed or not) by a wait of `seconds`, after which `onEnd` runs unless disarmed. Only
    /// the first call counts.
    func startGrace(seconds: Double, onEnd: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.disarmed, !state.graceStarted else { return }
            state.graceStarted = true
            state.timer?.cancel()
            state.action = onEnd
            state.generation += 1
            let generation = state.generation
            state.timer = clock.schedule(after: seconds) { [weak self] in self?.fire(generation) }
        }
    }

    /// Stops whatever is pending and lets go of the callbacks.
    func disarm() {
        let timer = state.withLock { state in
            state.disarmed = true
            state.action = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    private func fire(_ generation: Int) {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.generation == generation else { return nil }
            defer { state.action = nil }
            return state.action
        }
        action?()
    }
}
