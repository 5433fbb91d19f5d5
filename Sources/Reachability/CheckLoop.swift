import CEpoll
import Dispatch
import Glibc

/// One run of checks: the epoll loop and the sockets in flight. What each target has shown so far and what it means
/// is `TargetTracker`'s (pure, tested without sockets); this class does the I/O. Owns its epoll descriptor and
/// every socket; all of it lives on the thread that calls `run`.
final class CheckLoop {
    private struct Attempt {
        var fd: Int32
        var serial: UInt32
        var target: Int
        var address: String
        var started: UInt64
        var connectedAt: UInt64?
        var received: [UInt8] = []
    }

    private let targets: [CheckTarget]
    private let socketLimit: Int
    private let onResult: (CheckOutcome) -> Void
    private let resolver: Resolver
    private let epollFD: Int32

    private var tracker: TargetTracker
    private var attempts: [Int32: Attempt] = [:]
    private var nextSerial: UInt32 = 1
    private var ready: [(target: Int, addresses: [SocketAddress])] = []
    private var readyHead = 0

    init(targets: [CheckTarget], timeout: Double, socketLimit: Int, resolverThreads: Int,
         onResult: @escaping (CheckOutcome) -> Void) throws(ReachabilityError) {
        self.targets = targets
        tracker = TargetTracker(targets: targets, timeout: timeout)
        self.socketLimit = max(1, socketLimit)
        self.onResult = onResult
        resolver = try Resolver(maxThreads: resolverThreads)
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epollFD < 0 {
            throw ReachabilityError.eventLoop("Could not create the epoll instance the checks run on")
        }
    }

    deinit {
        for fd in attempts.keys { close(fd) }
        close(epollFD)
    }

    func run() throws(ReachabilityError) -> [CheckOutcome] {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = UInt64.max
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, resolver.wakeFD, &event) != 0 {
            throw ReachabilityError.eventLoop("Could not watch the resolver")
        }
        for (index, target) in targets.enumerated() { begin(index, target) }
        var events = [epoll_event](repeating: epoll_event(), count: 1024)
        while !tracker.allDone {
            startReady()
            let count = epoll_wait(epollFD, &events, Int32(events.count), waitMilliseconds())
            if count < 0 && errno != EINTR {
                throw ReachabilityError.eventLoop("The check loop failed")
            }
            for i in 0..<max(0, Int(count)) {
                let data = events[i].data.u64
                if data == UInt64.max {
                    takeAnswers()
                } else {
                    handle(fd: Int32(truncatingIfNeeded: data & 0xFFFF_FFFF), serial: UInt32(data >> 32),
                           events: events[i].events)
                }
            }
            expire(now: Self.now())
        }
        return tracker.results.compactMap { $0 }
    }

    // MARK: Targets

    private func begin(_ index: Int, _ target: CheckTarget) {
        guard (1...65535).contains(target.port) else {
            return finish(index, CheckOutcome(index: index, target: target, status: .unreachable,
                                              error: "port \(target.port) is not 1-65535"))
        }
        let host = target.host.hasPrefix("[") && target.host.hasSuffix("]")
            ? String(target.host.dropFirst().dropLast()) : target.host
        if host.isEmpty || host.contains(where: { $0.isWhitespace || $0 == "\0" }) {
            return finish(index, CheckOutcome(index: index, target: target, status: .dnsError,
                                              error: "'\(target.host)' is not a host name"))
        }
        switch SocketAddress.resolve(host: host, port: target.port, numericOnly: true) {
        case .success(let addresses):
            tracker.resolved(index)
            ready.append((index, addresses))
        case .failure(let failure) where failure.isNotNumeric:
            resolver.submit(index: index, host: host, port: target.port)
            tracker.lookupStarted(index, at: Self.now())
        case .failure(let failure):
            finish(index, CheckOutcome(index: index, target: target, status: .dnsError, error: failure.message))
        }
    }

    private func takeAnswers() {
        for answer in resolver.take() where !tracker.isDone(answer.index) {
            switch answer.result {
            case .success(let addresses):
                tracker.resolved(answer.index)
                ready.append((answer.index, addresses))
            case .failure(let failure):
                finish(answer.index, CheckOutcome(index: answer.index, target: targets[answer.index],
                                                  status: .dnsError, error: failure.message))
            }
        }
    }

    /// Starts waiting targets while their addresses fit under the socket limit.
    private func startReady() {
        var batch: [(target: Int, address: SocketAddress)] = []
        var reserved = attempts.count
        while readyHead < ready.count {
            let (index, addresses) = ready[readyHead]
            let wanted = min(addresses.count, socketLimit)
            if reserved + wanted > socketLimit && reserved > 0 { break }
            readyHead += 1
            if tracker.isDone(index) { continue }
            reserved += wanted
            tracker.reserve(index, attempts: wanted)
            for address in addresses.prefix(wanted) { batch.append((index, address)) }
        }
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        for opened in Self.open(batch) {
            if tracker.issued(opened.target) {
                register(opened)
            } else if opened.fd >= 0 {
                close(opened.fd)
            }
        }
    }

    /// A socket whose non-blocking connect has been issued, not yet watched.
    private struct Opened {
        var target: Int
        var address: SocketAddress
        var fd: Int32 = -1
        var started: UInt64 = 0
        var code: Int32 = 0
    }

    /// Below this many, one thread issues the connects; above, every core does a share (each connect to loopback
    /// runs the TCP handshake inside the system call, so a burst of thousands is kernel time worth spreading).
    static let parallelConnectThreshold = 512

    /// Issues the connects of a batch (in parallel when it is large) and returns them in the order they started,
    /// which keeps the deadline queue in order.
    private static func open(_ batch: [(target: Int, address: SocketAddress)]) -> [Opened] {
        var opened = batch.map { Opened(target: $0.target, address: $0.address) }
        let workers = batch.count < parallelConnectThreshold ? 1 : min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        opened.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedBuffer(buffer: buffer)
            let chunk = (buffer.count + workers - 1) / workers
            let work: @Sendable (Int) -> Void = { worker in
                let range = min(worker * chunk, shared.buffer.count)..<min((worker + 1) * chunk, shared.buffer.count)
                for i in range { shared.buffer[i] = issue(shared.buffer[i]) }
            }
            if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        }
        if workers > 1 { opened.sort { $0.started < $1.started } }
        return opened
    }

    // @unchecked: a raw buffer pointer shared by the `concurrentPerform` workers, each writing only its own disjoint
    // range of it, while `open` waits for them all; no element is touched by two threads.
    private struct SharedBuffer: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Opened>
    }

    private static func issue(_ request: Opened) -> Opened {
        var result = request
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        result.fd = socket(request.address.family, type, 0)
        result.started = now()
        if result.fd < 0 {
            result.code = errno
            return result
        }
        var storage = request.address.storage
        let rc = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(result.fd, $0, request.address.length)
            }
        }
        result.code = rc == 0 ? 0 : errno
        return result
    }

    private func finish(_ index: Int, _ outcome: CheckOutcome) {
        apply(tracker.finish(index, outcome))
    }

    private func conclude(_ index: Int, _ outcome: CheckOutcome) {
        apply(tracker.conclude(index, outcome))
    }

    /// Closes what a finished target still had open and reports it.
    private func apply(_ finished: TargetTracker.Finished?) {
        guard let finished else { return }
        for fd in finished.closing { closeAttempt(fd) }
        onResult(finished.outcome)
    }

    // MARK: Attempts

    /// Watches an issued connect, or concludes its attempt when the connect failed at once.
    private func register(_ opened: Opened) {
        let index = opened.target, fd = opened.fd, code = opened.code
        let target = targets[index]
        if fd < 0 {
            return conclude(index, CheckOutcome(index: index, target: target, status: .unreachable,
                                                error: "no socket: \(String(cString: strerror(code)))",
                                                address: opened.address.text))
        }
        let serial = nextSerial
        nextSerial &+= 1
        var attempt = Attempt(fd: fd, serial: serial, target: index, address: opened.address.text,
                              started: opened.started)
        if code != 0 && code != EINPROGRESS {
            close(fd)
            return conclude(index, tracker.failure(index, code, address: attempt.address))
        }
        if code == 0 { attempt.connectedAt = Self.now() }
        var event = epoll_event()
        event.events = (code == 0 ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : EPOLLOUT.rawValue)
        event.data.u64 = UInt64(UInt32(bitPattern: fd)) | (UInt64(serial) << 32)
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) != 0 {
            let message = String(cString: strerror(errno))
            close(fd)
            return conclude(index, CheckOutcome(index: index, target: target, status: .unreachable,
                                                error: "cannot watch socket: \(message)", address: attempt.address))
        }
        attempts[fd] = attempt
        tracker.watching(index, fd: fd, serial: serial, started: attempt.started)
    }

    private func handle(fd: Int32, serial: UInt32, events: UInt32) {
        guard var attempt = attempts[fd], attempt.serial == serial else { return }
        if attempt.connectedAt == nil {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 { error = errno }
            if error != 0 {
                return end(fd, tracker.failure(attempt.target, error, address: attempt.address))
            }
            if events & (EPOLLOUT.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue) == 0 { return }
            attempt.connectedAt = Self.now()
            attempts[fd] = attempt
            var event = epoll_event()
            event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
            event.data.u64 = UInt64(UInt32(bitPattern: fd)) | (UInt64(serial) << 32)
            _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
            return
        }
        var buffer = [UInt8](repeating: 0, count: 512)
        var ended = false
        var resetText: String?
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                attempt.received.append(contentsOf: buffer[0..<n])
                // A line end, or enough to judge: the verdict decides whether to read on (lines before `SSH-`).
                if attempt.received.count > BannerParser.maxReceived || buffer[0..<n].contains(UInt8(ascii: "\n")) { break }
                continue
            }
            if n == 0 {
                ended = true
            } else if errno == EINTR {
                continue
            } else if errno != EAGAIN && errno != EWOULDBLOCK {
                ended = true
                resetText = String(cString: strerror(errno))
            }
            break
        }
        attempts[fd] = attempt
        guard let outcome = tracker.banner(attempt.target, received: attempt.received, ended: ended,
                                           resetText: resetText, connectNanos: attempt.connectedAt! - attempt.started,
                                           address: attempt.address)
        else { return }
        end(fd, outcome)
    }

    private func expire(now: UInt64) {
        for expiry in tracker.expired(now: now) {
            switch expiry {
            case .lookup(let index):
                finish(index, tracker.lookupTimedOut(index))
            case .attempt(let fd, let serial):
                guard let attempt = attempts[fd], attempt.serial == serial else { continue }
                end(fd, tracker.attemptTimedOut(attempt.target, address: attempt.address,
                                                connectNanos: attempt.connectedAt.map { $0 - attempt.started },
                                                received: attempt.received))
            }
        }
    }

    /// Ends one attempt with `outcome` and lets the target conclude.
    private func end(_ fd: Int32, _ outcome: CheckOutcome) {
        closeAttempt(fd)
        apply(tracker.attemptEnded(fd: fd, outcome))
    }

    private func closeAttempt(_ fd: Int32) {
        guard attempts.removeValue(forKey: fd) != nil else { return }
        close(fd)
    }

    // MARK: Time

    private func waitMilliseconds() -> Int32 {
        guard let next = tracker.nextDeadline() else { return -1 }
        let now = Self.now()
        if next <= now { return 0 }
        return Int32(min(60_000, (next - now + 999_999) / 1_000_000))
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
