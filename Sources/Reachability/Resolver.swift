import CEpoll
import Foundation
import Glibc

/// Name lookups off the event loop: getaddrinfo blocks, so a few threads run it and post results back, waking the
/// loop through an eventfd. A lookup that outlives its check is abandoned; its thread finishes on its own, and the
/// eventfd stays open until the last thread lets go of this object.
final class Resolver: @unchecked Sendable {
    struct Answer {
        var index: Int
        var result: Result<[SocketAddress], ResolveFailure>
    }

    let wakeFD: Int32
    private let maxThreads: Int
    private let lock = NSLock()
    private var pending: [(index: Int, host: String, port: Int)] = []
    private var pendingHead = 0
    private var answers: [Answer] = []
    private var threads = 0

    init(maxThreads: Int) throws(ReachabilityError) {
        self.maxThreads = max(1, maxThreads)
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        if wakeFD < 0 {
            throw ReachabilityError(.eventLoop, String(cString: strerror(errno)), "Could not create an eventfd.")
        }
    }

    deinit { close(wakeFD) }

    func submit(index: Int, host: String, port: Int) {
        lock.lock()
        pending.append((index, host, port))
        let startThread = threads < maxThreads
        if startThread { threads += 1 }
        lock.unlock()
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
        lock.lock()
        defer { lock.unlock() }
        let taken = answers
        answers.removeAll(keepingCapacity: true)
        return taken
    }

    private func work() {
        while true {
            lock.lock()
            guard pendingHead < pending.count else {
                threads -= 1
                pending.removeAll()
                pendingHead = 0
                lock.unlock()
                return
            }
            let job = pending[pendingHead]
            pendingHead += 1
            lock.unlock()
            let result = SocketAddress.resolve(host: job.host, port: job.port, numericOnly: false)
            lock.lock()
            answers.append(Answer(index: job.index, result: result))
            lock.unlock()
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }
}
