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
    func run(width: Int) {
        let threads = max(1, min(width, count))
        state.withLock { $0.counted = threads }
        for _ in 0..<threads { startThread() }
        finished.wait()
    }

    /// A fresh thread in the slot of a job given up on (whose thread no longer counts).
    func replace() {
        startThread()
    }

    private func startThread() {
        let thread = Thread { [self] in
            while let index = take() {
                guard job(index, self) else { return }
            }
            let last = state.withLock { state in
                state.counted -= 1
                return state.counted == 0
            }
            if last { finished.signal() }
        }
        thread.stackSize = 512 * 1024
        thread.start()
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
