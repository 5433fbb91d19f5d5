import Foundation
import SSH
import Synchronization

/// Runs one command on many targets: at most `parallel` at a time, each with its own deadline (connect plus
/// command), each result reported the moment that target finishes, so a slow or dead server never holds up the
/// others. `cancel()` stops the rest and keeps what finished. `run` blocks its caller; callbacks arrive from worker
/// threads, one at a time (the runner serialises them), in the order things happen.
///
/// The parts: `WorkerPool` (the threads), `TargetAttempt` (one target, start to end), `TargetLifecycle` (the pure
/// per-target state machine and the status rules) and `Deadline` (timers on an injectable `FleetClock`).
public final class FleetRunner: Sendable {
    /// The settings of a run.
    public struct Options: Sendable {
        /// How many targets run at once (the `fleet.parallel` setting, default 64).
        public var parallel: Int
        /// Seconds each target may take, connecting included (the `fleet.timeout` setting, default 60).
        public var timeout: Double
        /// Bytes of stdout and of stderr kept per target; more is counted as truncated, not kept.
        public var outputLimit: Int
        /// Seconds a target may go on after its deadline (or a cancel) before it is given up: reported, replaced by a
        /// fresh worker and no longer waited for (a thread stuck where cancelling cannot reach, such as a DNS lookup).
        public var grace: Double
        /// A session's error as the front end says it: the command line's `message` (naming its options) by
        /// default; the interface gives its own words (its keys and screens).
        public var describe: @Sendable (SSHError) -> String

        public init(parallel: Int = FleetRunner.defaultParallel, timeout: Double = FleetRunner.defaultTimeout,
                    outputLimit: Int = 1 << 20, grace: Double = 2,
                    describe: @escaping @Sendable (SSHError) -> String = { $0.message }) {
            self.parallel = parallel
            self.timeout = timeout
            self.outputLimit = outputLimit
            self.grace = grace
            self.describe = describe
        }
    }

    /// Default parallelism (as the issue asks; pssh's is 32).
    public static let defaultParallel = 64
    /// Default seconds per server (pssh's default too).
    public static let defaultTimeout = 60.0

    /// The parallelism that fits `openFiles` descriptors: each running server holds a socket and a cancellation
    /// pipe (three descriptors), and some are kept for everything else.
    public static func parallel(_ wanted: Int, openFiles: Int) -> Int {
        max(1, min(wanted, (openFiles - 64) / 3))
    }

    /// What the system allows for a run: how many at once, or why none can run.
    public struct Fit: Sendable, Equatable {
        /// Targets at once (at least 1 when `refusal` is nil).
        public var parallel: Int
        /// Why fewer than asked run at once ("the open-file limit allows 40"), for a note; nil when all fit.
        public var lowered: String?
        /// Why the run cannot start at all (not even one worker fits the memory limit).
        public var refusal: String?
    }

    /// The one rule both front ends use: the open-file limit (raised to its hard limit first) and the address-space
    /// limit (`ulimit -v`) each lower the parallelism; when not even one worker fits, the run is refused.
    public static func fit(_ wanted: Int, openFiles: Int, addressSpace: Int? = MemoryLimit.addressSpace,
                           inUse: Int = MemoryLimit.inUse) -> Fit {
        let byFiles = parallel(wanted, openFiles: openFiles)
        let byMemory = MemoryLimit.workers(byFiles, limit: addressSpace, inUse: inUse)
        if byMemory == 0, let addressSpace {
            return Fit(parallel: 0, lowered: nil, refusal: """
                Not enough memory to run: the address-space limit (ulimit -v \(addressSpace / 1024)) leaves no room \
                for a worker (\(MemoryLimit.perWorker >> 20) MiB each, \(MemoryLimit.reserve >> 20) MiB kept \
                free). Raise the limit (ulimit -v) and run again.
                """)
        }
        if byMemory < byFiles {
            return Fit(parallel: byMemory, lowered: "running \(byMemory) at once, not \(wanted): the address-space "
                           + "limit (ulimit -v) leaves room for \(byMemory) workers", refusal: nil)
        }
        if byFiles < wanted {
            return Fit(parallel: byFiles, lowered: "running \(byFiles) at once, not \(wanted): the open-file limit "
                           + "(ulimit -n) allows \(byFiles)", refusal: nil)
        }
        return Fit(parallel: wanted, lowered: nil, refusal: nil)
    }

    struct RunState {
        var cancelled = false
        /// Every target now running, by index.
        var active: [Int: TargetAttempt] = [:]
    }

    let executor: any FleetExecutor
    let options: Options
    let clock: any FleetClock
    let state = Mutex(RunState())
    private let callbacks = Mutex(())

    /// A runner; `clock` is for tests (a manual clock), the system's by default.
    public init(executor: any FleetExecutor = SSHFleetExecutor(), options: Options = Options(),
                clock: any FleetClock = SystemFleetClock()) {
        self.executor = executor
        self.options = options
        self.clock = clock
    }

    /// Stops every running target (their status becomes `cancelled`) and starts no more. Safe from any thread,
    /// a signal handler's queue included.
    public func cancel() {
        let running = state.withLock { state in
            state.cancelled = true
            return Array(state.active.values)
        }
        for target in running { target.cancel() }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `command` on every target and returns their results in target order. `onStart` says a target took a
    /// slot, `onOutput` passes output as it arrives, `onFinish` gives each final result as soon as it exists.
    public func run(_ targets: [FleetTarget], command: String,
                    onStart: @escaping @Sendable (Int) -> Void = { _ in },
                    onOutput: @escaping @Sendable (Int, SSH.OutputStream, UnsafeRawBufferPointer) -> Void = { _, _, _ in },
                    onFinish: @escaping @Sendable (Int, FleetResult) -> Void = { _, _ in }) -> [FleetResult] {
        let results = ResultSlots(targets.map { FleetResult(name: $0.name, status: .waiting) })
        // The run's bastion sessions, one per distinct jump chain, shared by every target behind it; closed when
        // the run ends (a target given up on and still running sees its connection end).
        let jumps = JumpPool()
        defer { jumps.close() }
        let report: @Sendable (Int, FleetResult) -> Void = { [self] i, result in
            results.set(i, result)
            serialised { onFinish(i, result) }
        }
        let pool = WorkerPool(count: targets.count, stopWhen: { [self] in isCancelled }) { [self] i, pool in
            let outcome = attempt(targets[i], index: i, command: command, jumps: jumps,
                                  onStart: { i in self.serialised { onStart(i) } },
                                  onOutput: { i, stream, bytes in self.serialised { onOutput(i, stream, bytes) } },
                                  onGiveUp: { given in
                                      report(i, given)
                                      pool.replace()
                                  })
            // Given up on: already reported and replaced.
            guard let result = outcome else { return false }
            report(i, result)
            return true
        }
        pool.run(width: options.parallel)
        // Targets never started (the run was cancelled) are reported as cancelled.
        var final = results.all
        for i in final.indices where !final[i].status.isFinal {
            final[i].status = .cancelled
            final[i].error = "Cancelled before it started."
            let result = final[i]
            serialised { onFinish(i, result) }
        }
        return final
    }

    func serialised(_ body: () -> Void) {
        callbacks.withLock { _ in body() }
    }
}

/// Results by target index, written by the workers and the timers that give up on targets.
private final class ResultSlots: Sendable {
    private let values: Mutex<[FleetResult]>

    init(_ values: [FleetResult]) { self.values = Mutex(values) }

    func set(_ i: Int, _ result: FleetResult) { values.withLock { $0[i] = result } }

    var all: [FleetResult] { values.withLock { $0 } }
}
