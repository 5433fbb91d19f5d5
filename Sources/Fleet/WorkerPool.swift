import Basics
import Dispatch
import Foundation
import Synchronization

/// Runs a job for every index below `count` on a few threads: each thread takes the next index from a `Mutex` until
/// none is left or `stopWhen` says so (the run was cancelled: indices not taken are never run). Plain threads, not GCD: every fleet worker blocks in poll() for up to a
/// timeout, and GCD caps its pool.
///
/// A job that was given up on (its target outlived deadline plus grace) is left to itself: `replace()` starts a
/// fresh thread in its slot, and the job, when it finally returns `false`, ends its thread without taking more work.
/// `run` waits only for the threads still counted, never for one that was given up on.
final class WorkerPool: Sendable {
    private struct State {
        var next = 0
        /// Threads `run` waits for: the ones started, minus those that ended, minus those given up on.
        var counted = 0
    }

    private let count: Int
    private let stopWhen: @Sendable () -> Bool
    private let job: @Sendable (Int, WorkerPool) -> Bool
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    /// A pool for indices `0..<count`. `job(i, pool)` returns whether its thread goes on (false: the job was given up
    /// on and `pool.replace()` called or about to be called for it).
    init(count: Int, stopWhen: @escaping @Sendable () -> Bool, job: @escaping @Sendable (Int, WorkerPool) -> Bool) {
        self.count = count
        self.stopWhen = stopWhen
        self.job = job
    }

    /// Starts `width` threads (at least one, at most one per index) and blocks until every counted thread ended.
    /// Returns how many threads started: fewer when the system refused more (no memory, the thread limit), and the
    /// jobs then share those; when it refuses every one, the jobs run on the calling thread, one at a time.
    @discardableResult
    func run(width: Int) -> Int {
        let wanted = max(1, min(width, count))
        // Counted up front, so a thread that finishes at once cannot signal before the others started.
        state.withLock { $0.counted = wanted }
        var started = 0
        while started < wanted && startThread() { started += 1 }
        if started == 0 {
            state.withLock { $0.counted = 0 }
            runJobs()
            return 0
        }
        // The threads the system refused never count down: take them off, and signal if that leaves none.
        let missing = wanted - started
        if missing > 0 && countDown(missing) { return started }
        finished.wait()
        return started
    }

    /// A fresh thread in the slot of a job given up on (whose thread no longer counts down). When the system
    /// refuses it, its slot is counted down at once, so the run goes on with one thread fewer and never hangs.
    func replace() {
        if !startThread() && countDown(1) { finished.signal() }
    }

    /// Takes jobs until none is left (true) or one is given up on (false: that thread no longer counts).
    private func runJobs() -> Bool {
        while let index = take() {
            guard job(index, self) else { return false }
        }
        return true
    }

    /// Takes `n` off the threads waited for; true when none is left.
    private func countDown(_ n: Int) -> Bool {
        state.withLock { state in
            state.counted -= n
            return state.counted == 0
        }
    }

    /// One worker thread with a 512 KiB stack; false when the system refuses it (never a crash).
    private func startThread() -> Bool {
        PlainThread.start(stackSize: 512 * 1024) { [self] in
            if runJobs() && countDown(1) { finished.signal() }
        }
    }

    private func take() -> Int? {
        if stopWhen() { return nil }
        return state.withLock { state in
            guard state.next < count else { return nil }
            state.next += 1
            return state.next - 1
        }
    }
}
