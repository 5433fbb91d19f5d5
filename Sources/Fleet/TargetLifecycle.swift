import Basics
import SSH

/// One target's life in a fleet run, as a pure state machine: events in (it started, its deadline passed, the run was
/// cancelled, the grace period ended, its attempt ended), what the runner must do out. No threads, no clock, no I/O:
/// the runner feeds it under a lock from its worker and timer threads, the tests feed it directly.
///
/// `waiting → running → done | timedOut | cancelled | abandoned`. A running target that is told to stop (its deadline
/// or a cancel) gets a grace period to end on its own; if it is still running when the grace ends it is abandoned:
/// reported at once (timed out, or cancelled when the run was cancelled) and its late result, if any, dropped.
struct TargetLifecycle: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Not started: every slot is busy.
        case waiting
        /// Connecting or running the command.
        case running
        /// Ended on its own account: ok, failed, or a connect or login failure.
        case done
        /// Its time ran out.
        case timedOut
        /// Stopped by the run's cancel.
        case cancelled
        /// Still running where cancelling cannot reach after its grace period; reported and no longer waited for.
        case abandoned
    }

    /// What the runner must do after an event.
    enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// Cancel the target's connection and start the grace period.
        case stop
        /// Report the target with this status (it did not stop when told) and give its slot to a new worker.
        case giveUp(FleetStatus)
    }

    private(set) var state: State = .waiting
    /// Whether the target's deadline passed while it ran (it was stopped because its time was up).
    private(set) var deadlinePassed = false
    /// Whether the run was cancelled while the target ran.
    private(set) var cancelRequested = false
    /// Whether the target has been told to stop and its grace period runs.
    private(set) var stopping = false

    init() {}

    /// It took a slot.
    mutating func start() {
        if state == .waiting { state = .running }
    }

    /// Its deadline passed.
    mutating func deadline() -> Action {
        guard state == .running, !stopping else { return .none }
        deadlinePassed = true
        stopping = true
        return .stop
    }

    /// The run was cancelled. A target already stopping (its deadline passed) only remembers it: if it is given up
    /// later, it is reported as cancelled.
    mutating func cancel() -> Action {
        guard state == .running else { return .none }
        cancelRequested = true
        guard !stopping else { return .none }
        stopping = true
        return .stop
    }

    /// Its grace period ended.
    mutating func graceEnded() -> Action {
        guard state == .running, stopping else { return .none }
        state = .abandoned
        return .giveUp(cancelRequested ? .cancelled : .timedOut)
    }

    /// Its attempt ended with `status`. False when it had been abandoned: its result is already out, drop this one.
    mutating func finish(_ status: FleetStatus) -> Bool {
        guard state == .running else { return false }
        switch status {
        case .timedOut: state = .timedOut
        case .cancelled: state = .cancelled
        default: state = .done
        }
        return true
    }

    // MARK: Decisions made from values alone

    /// The connect timeout to give SSH: the target's own (`configured`, from --connect-timeout or the saved
    /// server), clamped to the seconds `left` before the target's deadline; and whether the clamp (the deadline) is
    /// what limits it. Decided once, when the attempt starts, so how a connect time-out is reported never depends
    /// on which of two timers fires first.
    static func connectTimeout(configured: Double, left: Double) -> (seconds: Double, limitedByDeadline: Bool) {
        (max(0.001, min(configured, left)), left <= configured)
    }

    /// The status and sentence of a failed attempt; `describe` turns the session's error into the front end's
    /// sentence (the command line's `message`, the interface's own words).
    ///
    /// - A connect step that timed out is `timedOut` either way: with "No result within …" when its timeout was the
    ///   deadline's (the clamp limited it, see `connectTimeout`), with its own sentence when it was the configured
    ///   connect timeout.
    /// - Otherwise the target's own deadline (it stopped the target) or the command's time limit (which is that
    ///   deadline) make it `timedOut`.
    /// - A cancel that was not the deadline's is `cancelled`.
    /// - Any other connect or login error has the status of its kind (`FleetStatus(connectFailure:)`: refused,
    ///   host-key-unknown, auth-failed, …); a command error is `failed` (`timedOut` when the server stopped
    ///   answering).
    static func classify(_ failure: FleetFailure, deadlinePassed: Bool, connectLimitedByDeadline: Bool,
                         timeout: Double, describe: (SSHError) -> String = { $0.message })
        -> (status: FleetStatus, message: String)
    {
        let kind = failure.error.kind
        let outOfTime = "No result within \(DurationText.text(timeout, .oneDecimal)) s"
            + (failure.phase == .connect ? " (still connecting)." : " (the command was still running).")
        if failure.phase == .connect && kind == .timedOut {
            return (.timedOut, connectLimitedByDeadline ? outOfTime : describe(failure.error))
        }
        if deadlinePassed || (failure.phase == .command && kind == .commandTimedOut) {
            return (.timedOut, outOfTime)
        }
        if kind == .cancelled { return (.cancelled, "Cancelled.") }
        if failure.phase == .connect { return (FleetStatus(connectFailure: kind), describe(failure.error)) }
        return (kind == .timedOut ? .timedOut : .failed, describe(failure.error))
    }

    /// The sentence of a target given up on (`status` is `timedOut` or `cancelled`).
    static func givenUpMessage(_ status: FleetStatus, timeout: Double, grace: Double) -> String {
        (status == .cancelled ? "Cancelled" : "No result within \(DurationText.text(timeout, .oneDecimal)) s")
            + "; given up after \(DurationText.text(grace, .oneDecimal)) s more (it did not stop when told)."
    }
}
