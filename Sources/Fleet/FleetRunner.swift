import Foundation
import SSH

/// Runs one command on many targets: at most `parallel` at a time, each with its own deadline (connect plus
/// command), each result reported the moment that target finishes, so a slow or dead server never holds up the
/// others. `cancel()` stops the rest and keeps what finished. `run` blocks its caller; callbacks arrive from worker
/// threads, one at a time (the runner serialises them), in the order things happen.
public final class FleetRunner: @unchecked Sendable {
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

        public init(parallel: Int = FleetRunner.defaultParallel, timeout: Double = FleetRunner.defaultTimeout,
                    outputLimit: Int = 1 << 20, grace: Double = 2) {
            self.parallel = parallel
            self.timeout = timeout
            self.outputLimit = outputLimit
            self.grace = grace
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

    private let executor: any FleetExecutor
    private let options: Options
    private let lock = NSLock()
    private let callbackLock = NSLock()
    private var cancelled = false
    /// The cancellation and deadline of every target now running, by index.
    private var active: [Int: (cancel: Cancellation, deadline: Deadline)] = [:]

    public init(executor: any FleetExecutor = SSHFleetExecutor(), options: Options = Options()) {
        self.executor = executor
        self.options = options
    }

    /// Stops every running target (their status becomes `cancelled`) and starts no more. Safe from any thread,
    /// a signal handler's queue included.
    public func cancel() {
        lock.lock()
        cancelled = true
        let running = Array(active.values)
        lock.unlock()
        for (c, deadline) in running {
            c.cancel()
            deadline.cutShort()
        }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Runs `command` on every target and returns their results in target order. `onStart` says a target took a
    /// slot, `onOutput` passes output as it arrives, `onFinish` gives each final result as soon as it exists.
    public func run(_ targets: [FleetTarget], command: String,
                    onStart: @escaping @Sendable (Int) -> Void = { _ in },
                    onOutput: @escaping @Sendable (Int, SSH.OutputStream, UnsafeRawBufferPointer) -> Void = { _, _, _ in },
                    onFinish: @escaping @Sendable (Int, FleetResult) -> Void = { _, _ in }) -> [FleetResult] {
        let results = ResultSlots(targets.map { FleetResult(name: $0.name, status: .waiting) })
        let next = NextIndex()
        let workers = max(1, min(options.parallel, targets.count))
        let group = DispatchGroup()
        // Plain threads, not GCD: every worker blocks in poll() for up to a timeout, and GCD caps its pool. A worker
        // given up on (its target outlived deadline plus grace) is left to itself: a new worker takes its slot, and
        // the group no longer counts it.
        @Sendable func startWorker() {
            group.enter()
            let worker = Worker()
            let thread = Thread { [self] in
                while let i = next.take(below: targets.count), !isCancelled {
                    worker.begin()
                    let result = attempt(targets[i], index: i, command: command, worker: worker, onStart: onStart,
                                         onOutput: onOutput) { [self] cancelled in
                        guard worker.abandon() else { return }
                        var given = FleetResult(name: targets[i].name, status: cancelled ? .cancelled : .timedOut)
                        given.error = (cancelled ? "Cancelled" : "No result within \(formatted(options.timeout)) s")
                            + "; given up after \(formatted(options.grace)) s more (it did not stop when told)."
                        given.duration = cancelled ? 0 : options.timeout + options.grace
                        results.set(i, given)
                        serialised { onFinish(i, given) }
                        startWorker()
                        group.leave()
                    }
                    // Given up on: already reported and replaced.
                    guard worker.end() else { return }
                    results.set(i, result)
                    serialised { onFinish(i, result) }
                }
                group.leave()
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        for _ in 0..<workers { startWorker() }
        group.wait()
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

    private func serialised(_ body: () -> Void) {
        callbackLock.lock()
        body()
        callbackLock.unlock()
    }

    /// One target, start to end, under its own deadline; `giveUp` is called (from a timer) when it goes on past
    /// deadline plus grace, with whether it had been cancelled.
    private func attempt(_ target: FleetTarget, index: Int, command: String, worker: Worker,
                         onStart: @Sendable (Int) -> Void,
                         onOutput: @escaping @Sendable (Int, SSH.OutputStream, UnsafeRawBufferPointer) -> Void,
                         giveUp: @escaping @Sendable (Bool) -> Void)
        -> FleetResult
    {
        let started = Date()
        var result = FleetResult(name: target.name, status: .running)
        serialised { onStart(index) }
        if let problem = target.problem {
            result.status = .unreachable
            result.error = problem
            return result
        }
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            result.status = .unreachable
            result.error = error.message
            result.duration = Date().timeIntervalSince(started)
            return result
        }
        // The deadline covers connect plus command: a watchdog cancels the target when it passes, and gives up on it
        // `grace` seconds later.
        let deadline = Deadline(seconds: options.timeout, grace: options.grace, cancel: cancel) { [self] in
            giveUp(isCancelled)
        }
        lock.lock()
        let alreadyCancelled = cancelled
        active[index] = (cancel, deadline)
        lock.unlock()
        if alreadyCancelled {
            cancel.cancel()
            deadline.cutShort()
        }
        defer {
            deadline.disarm()
            lock.lock()
            active[index] = nil
            lock.unlock()
        }
        let limit = options.outputLimit
        var out: [UInt8] = [], err: [UInt8] = []
        var truncated = false
        do throws(FleetFailure) {
            let exit = try executor.execute(
                target, command: command, connectTimeout: options.timeout, deadline: started + options.timeout,
                cancel: cancel
            ) { [self] stream, bytes in
                if stream == .stdout { Self.keep(bytes, in: &out, limit: limit, truncated: &truncated) }
                else { Self.keep(bytes, in: &err, limit: limit, truncated: &truncated) }
                // A target given up on says nothing more (its result is out, the run may be over).
                if !worker.isAbandoned { serialised { onOutput(index, stream, bytes) } }
            }
            result.exitStatus = exit.exitCode
            result.status = exit.exitCode == 0 ? .ok : .failed
            // libssh2 reports exit status 0 when none arrived, so "no exit status" cannot be told apart here.
            if let signal = exit.signal { result.error = "The command was killed by signal \(signal)." }
        } catch {
            result.error = error.error.message
            // Only this target's own deadline is "no result within the fleet timeout": the command's time limit is
            // that deadline too, but a connect step that timed out (--connect-timeout) keeps its own sentence and
            // counts as unreachable.
            if deadline.fired || (error.phase == .command && error.error.kind == .commandTimedOut) {
                result.status = .timedOut
                result.error = "No result within \(formatted(options.timeout)) s"
                    + (error.phase == .connect ? " (still connecting)." : " (the command was still running).")
            } else if error.error.kind == .cancelled {
                result.status = .cancelled
                result.error = "Cancelled."
            } else if error.phase == .connect {
                result.status = .unreachable
            } else {
                result.status = error.error.kind == .timedOut ? .timedOut : .failed
            }
        }
        result.stdout = out
        result.stderr = err
        result.truncated = truncated
        result.duration = Date().timeIntervalSince(started)
        return result
    }

    private static func keep(_ bytes: UnsafeRawBufferPointer, in buffer: inout [UInt8], limit: Int,
                             truncated: inout Bool) {
        let room = limit - buffer.count
        if bytes.count > room { truncated = true }
        if room > 0 { buffer.append(contentsOf: bytes.prefix(room)) }
    }

    private func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}

/// The next target index to start, shared by the workers.
private final class NextIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < count else { return nil }
        value += 1
        return value - 1
    }
}

/// Results by target index, written by the workers.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [FleetResult]

    init(_ values: [FleetResult]) { self.values = values }

    func set(_ i: Int, _ result: FleetResult) {
        lock.lock()
        values[i] = result
        lock.unlock()
    }

    var all: [FleetResult] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

/// One worker thread's state, so a timer can give up on its target exactly once, and only while it runs one.
private final class Worker: @unchecked Sendable {
    private let lock = NSLock()
    private var inAttempt = false
    private var abandoned = false

    func begin() {
        lock.lock()
        inAttempt = true
        lock.unlock()
    }

    /// Ends the attempt; false when it was given up on meanwhile (the worker must then stop).
    func end() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        inAttempt = false
        return !abandoned
    }

    /// Gives up on the running attempt; false when it already ended.
    func abandon() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard inAttempt, !abandoned else { return false }
        abandoned = true
        return true
    }

    var isAbandoned: Bool {
        lock.lock()
        defer { lock.unlock() }
        return abandoned
    }
}

/// Cancels a target when its time is up, unless disarmed first, says whether it fired, and `grace` seconds later
/// gives up on a target that still has not stopped. The timer holds the cancellation only until it fires or is
/// disarmed, so a finished target's pipe closes at once rather than when its full timeout would have ended (with
/// hundreds of quick targets those pipes would exhaust the descriptors).
final class Deadline: @unchecked Sendable {
    private let lock = NSLock()
    private var cancel: Cancellation?
    private var giveUp: (@Sendable () -> Void)?
    private var didFire = false
    private var inGrace = false
    private let grace: Double
    private let timer: DispatchSourceTimer

    init(seconds: Double, grace: Double, cancel: Cancellation, giveUp: @escaping @Sendable () -> Void) {
        self.cancel = cancel
        self.giveUp = giveUp
        self.grace = grace
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    private func tick() {
        lock.lock()
        if inGrace {
            let action = giveUp
            giveUp = nil
            lock.unlock()
            timer.cancel()
            action?()
            return
        }
        let target = cancel
        if target != nil { didFire = true }
        cancel = nil
        inGrace = giveUp != nil
        if inGrace { timer.schedule(deadline: .now() + grace) }
        lock.unlock()
        target?.cancel()
    }

    /// After a cancel: the grace period starts now rather than at the deadline.
    func cutShort() {
        lock.lock()
        defer { lock.unlock() }
        guard !inGrace, giveUp != nil else { return }
        cancel = nil
        inGrace = true
        timer.schedule(deadline: .now() + grace)
    }

    func disarm() {
        lock.lock()
        cancel = nil
        giveUp = nil
        lock.unlock()
        timer.cancel()
    }

    var fired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return didFire
    }
}
