import Basics
import Foundation
import SSH
import Synchronization

/// One target while it runs, shared by its worker thread, its deadline's timers and the runner's `cancel()`: the
/// `TargetLifecycle` under a lock decides, this object carries out what it says (cancel the connection, start the
/// grace period, give up).
final class TargetAttempt: Sendable {
    let cancellation: Cancellation
    private let lifecycle = Mutex(TargetLifecycle())
    private let deadline = Mutex<Deadline?>(nil)
    private let clock: any FleetClock
    private let grace: Double
    private let onGiveUp: @Sendable (FleetStatus) -> Void

    init(cancellation: Cancellation, clock: any FleetClock, grace: Double,
         onGiveUp: @escaping @Sendable (FleetStatus) -> Void) {
        self.cancellation = cancellation
        self.clock = clock
        self.grace = grace
        self.onGiveUp = onGiveUp
    }

    /// It took a slot; its deadline is `seconds` from now.
    func start(seconds: Double) {
        lifecycle.withLock { $0.start() }
        // Made under the lock that `perform` takes to find it, so even a deadline of no time finds it there.
        deadline.withLock { slot in
            slot = Deadline(clock: clock, seconds: seconds) { [self] in
                perform(lifecycle.withLock { $0.deadline() })
            }
        }
    }

    /// The run was cancelled.
    func cancel() {
        perform(lifecycle.withLock { $0.cancel() })
    }

    /// Its attempt ended with `status`: false when it had been given up on (drop the result). Disarms the deadline,
    /// which lets go of the cancellation pipe.
    func finish(_ status: FleetStatus) -> Bool {
        let kept = lifecycle.withLock { $0.finish(status) }
        deadline.withLock { $0 }?.disarm()
        return kept
    }

    var deadlinePassed: Bool { lifecycle.withLock { $0.deadlinePassed } }
    var isAbandoned: Bool { lifecycle.withLock { $0.state == .abandoned } }

    private func perform(_ action: TargetLifecycle.Action) {
        switch action {
        case .none:
            return
        case .stop:
            cancellation.cancel()
            deadline.withLock { $0 }?.startGrace(seconds: grace) { [self] in
                perform(lifecycle.withLock { $0.graceEnded() })
            }
        case .giveUp(let status):
            onGiveUp(status)
        }
    }
}

extension FleetRunner {
    /// Runs one target start to end under its own deadline and returns its result, or nil when it was given up on
    /// meanwhile (`onGiveUp` has reported it then, from a timer).
    func attempt(_ target: FleetTarget, index: Int, command: String, jumps: JumpPool,
                 onStart: @Sendable (Int) -> Void,
                 onOutput: @escaping @Sendable (Int, SSH.OutputStream, UnsafeRawBufferPointer) -> Void,
                 onGiveUp: @escaping @Sendable (FleetResult) -> Void) -> FleetResult? {
        let started = clock.now()
        var result = FleetResult(name: target.name, status: .running)
        if let problem = target.problem {
            onStart(index)
            result.status = problem.status
            result.error = problem.message
            return result
        }
        let cancellation: Cancellation
        do throws(SSHError) { cancellation = try Cancellation() } catch {
            onStart(index)
            result.status = .connectFailed
            result.error = options.describe(error)
            result.duration = clock.now() - started
            return result
        }
        let options = options
        let running = TargetAttempt(cancellation: cancellation, clock: clock, grace: options.grace) { status in
            var given = FleetResult(name: target.name, status: status)
            given.error = TargetLifecycle.givenUpMessage(status, timeout: options.timeout, grace: options.grace)
            given.duration = status == .cancelled ? 0 : options.timeout + options.grace
            onGiveUp(given)
        }
        // The deadline covers connect plus command, and is armed before the start is reported.
        running.start(seconds: options.timeout)
        let alreadyCancelled = state.withLock { state in
            state.active[index] = running
            return state.cancelled
        }
        if alreadyCancelled { running.cancel() }
        defer { _ = state.withLock { $0.active.removeValue(forKey: index) } }
        onStart(index)

        let left = max(0, started + options.timeout - clock.now())
        let connect = TargetLifecycle.connectTimeout(configured: target.options.connectTimeout, left: left)
        var out = CappedBytes(limit: options.outputLimit), err = CappedBytes(limit: options.outputLimit)
        do throws(FleetFailure) {
            let exit = try executor.execute(
                target, command: command, connectTimeout: connect.seconds, deadline: Date().addingTimeInterval(left),
                cancel: cancellation, jumps: jumps
            ) { stream, bytes in
                if stream == .stdout { out.append(bytes) } else { err.append(bytes) }
                // A target given up on says nothing more (its result is out, the run may be over).
                if !running.isAbandoned { onOutput(index, stream, bytes) }
            }
            result.exitStatus = exit.exitCode
            result.status = exit.exitCode == 0 ? .ok : .failed
            // libssh2 reports exit status 0 when none arrived, so "no exit status" cannot be told apart here.
            if let signal = exit.signal { result.error = "The command was killed by signal \(signal)." }
        } catch {
            (result.status, result.error) = TargetLifecycle.classify(
                error, deadlinePassed: running.deadlinePassed, connectLimitedByDeadline: connect.limitedByDeadline,
                timeout: options.timeout, describe: options.describe)
        }
        guard running.finish(result.status) else { return nil }
        result.stdout = out.bytes
        result.stderr = err.bytes
        result.truncated = out.cut > 0 || err.cut > 0
        result.duration = clock.now() - started
        return result
    }
}
