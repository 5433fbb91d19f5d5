import CEpoll
import Foundation
import Glibc
import Synchronization

/// Name lookups off the event loop: getaddrinfo blocks, so a few threads run it and post results back, waking the
/// loop through an eventfd. A lookup that outlives its check is abandoned; its thread finishes on its own, and the
/// eventfd stays open until the last thread lets go of this object.
final class Resolver: Sendable {
    struct Answer: Sendable {
        var index: Int
        var result: Result<[SocketAddress], ResolveFailure>
    }

    private struct State {
        var pending: [(index: Int, host: String, port: Int)] = []
        var pendingHead = 0
        var answers: [Answer] = []
        var threads = 0
    }

    let wakeFD: Int32
    private let maxThreads: Int
    private let state = Mutex(State())

    init(maxThreads: Int) throws(ReachabilityError) {
        self.maxThreads = max(1, maxThreads)
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        if wakeFD < 0 {
            throw ReachabilityError.eventLoop("Could not create the eventfd that wakes the resolver")
        }
    }

    deinit { close(wakeFD) }

    func submit(index: Int, host: String, port: Int) {
        let startThread = state.withLock { state in
            state.pending.append((index, host, port))
            guard state.threads < maxThreads else { return false }
            state.threads += 1
            return true
        }
        if startThread {
            let thread = Thread { [self] in work() }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    /// The answers that arrived since the last call.
    func take() -> [Answer] {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
        return state.withLock { state in
            let taken = state.answers
            state.answers.removeAll(keepingCapacity: true)
            return taken
        }
    }

    private func work() {
        while true {
            let next: (index: Int, host: String, port: Int)? = state.withLock { state in
                guard state.pendingHead < state.pending.count else {
                    state.threads -= 1
                    state.pending.removeAll()
                    state.pendingHead = 0
                    return nil
                }
                state.pendingHead += 1
                return state.pending[state.pendingHead - 1]
            }
            guard let job = next else { return }
            let result = SocketAddress.resolve(host: job.host, port: job.port, numericOnly: false)
            state.withLock { $0.answers.append(Answer(index: job.index, result: result)) }
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }
}
