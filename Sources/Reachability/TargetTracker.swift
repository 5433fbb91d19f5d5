import Basics
import Glibc

/// The per-target decisions of a check run, without sockets or a clock: which attempts a target still waits for, the
/// best of its attempts' outcomes (by status rank), when it is finished, which deadline falls due next and what a
/// time-out or a failed connect means. Attempt events in, finished `CheckOutcome`s out; `CheckLoop` does the I/O
/// around it and passes times in (nanoseconds of its monotonic clock). Attempts are named by their socket.
struct TargetTracker {
    /// A target that just finished: its outcome, and the attempts it still had open, which the loop must close.
    struct Finished: Equatable {
        var outcome: CheckOutcome
        var closing: [Int32]
    }

    /// A deadline that fell due.
    enum Expiry: Equatable {
        /// A name lookup got no answer in time (its target is neither resolved nor finished).
        case lookup(target: Int)
        /// An attempt ran out of time, unless it already ended (the loop checks the serial).
        case attempt(fd: Int32, serial: UInt32)
    }

    private struct TargetState {
        var attemptFDs: [Int32] = []
        /// Connects issued but not yet registered: the target is not concluded while some remain.
        var unregistered = 0
        /// The name has resolved (or was an address): only lookups still running can time out as DNS errors.
        var resolved = false
        var best: CheckOutcome?
        var done = false
    }

    private struct Deadline {
        var at: UInt64
        var fd: Int32
        var serial: UInt32
    }

    let targets: [CheckTarget]
    let timeoutNanos: UInt64
    /// `2 s`, `0.5 s`: the timeout as the messages say it.
    let timeoutText: String
    private var states: [TargetState]
    private(set) var results: [CheckOutcome?]
    private(set) var completed = 0
    // Every attempt and lookup gets the same timeout, so deadlines arrive in the order they were set: FIFO queues
    // replace a heap.
    private var deadlines: [Deadline] = []
    private var deadlineHead = 0
    private var lookupDeadlines: [(at: UInt64, target: Int)] = []
    private var lookupHead = 0

    init(targets: [CheckTarget], timeout: Double) {
        self.targets = targets
        timeoutNanos = UInt64(timeout * 1_000_000_000)
        timeoutText = timeout == timeout.rounded() ? "\(Int(timeout)) s" : "\(timeout) s"
        states = Array(repeating: TargetState(), count: targets.count)
        results = Array(repeating: nil, count: targets.count)
    }

    /// Whether every target has finished.
    var allDone: Bool { completed == targets.count }

    func isDone(_ index: Int) -> Bool { states[index].done }

    // MARK: Lookups

    /// Its name is being looked up from `now` on.
    mutating func lookupStarted(_ index: Int, at now: UInt64) {
        lookupDeadlines.append((now + timeoutNanos, index))
    }

    /// Its name resolved (or was an address).
    mutating func resolved(_ index: Int) {
        states[index].resolved = true
    }

    // MARK: Attempts

    /// `count` connects are about to be issued for it.
    mutating func reserve(_ index: Int, attempts count: Int) {
        states[index].unregistered += count
    }

    /// One reserved connect was issued. False when the target finished meanwhile: the loop closes that socket.
    mutating func issued(_ index: Int) -> Bool {
        states[index].unregistered -= 1
        return !states[index].done
    }

    /// The loop watches attempt `fd` (started at `started`); it times out `timeout` after that.
    mutating func watching(_ index: Int, fd: Int32, serial: UInt32, started: UInt64) {
        states[index].attemptFDs.append(fd)
        deadlines.append(Deadline(at: started + timeoutNanos, fd: fd, serial: serial))
    }

    /// Watched attempt `fd` ended with `outcome` (its socket closed by the loop).
    mutating func attemptEnded(fd: Int32, _ outcome: CheckOutcome) -> Finished? {
        states[outcome.index].attemptFDs.removeAll { $0 == fd }
        return conclude(outcome.index, outcome)
    }

    /// Keeps the most informative outcome of a target's attempts; the target is finished when one is online or
    /// none is left.
    mutating func conclude(_ index: Int, _ outcome: CheckOutcome) -> Finished? {
        guard !states[index].done else { return nil }
        if states[index].best.map({ outcome.status.rank < $0.status.rank }) ?? true { states[index].best = outcome }
        guard outcome.status == .online || (states[index].attemptFDs.isEmpty && states[index].unregistered == 0)
        else { return nil }
        return finish(index, states[index].best ?? outcome)
    }

    /// It is finished with `outcome`, whatever its attempts still do; nil when it already was.
    mutating func finish(_ index: Int, _ outcome: CheckOutcome) -> Finished? {
        guard !states[index].done else { return nil }
        states[index].done = true
        let closing = states[index].attemptFDs
        states[index].attemptFDs = []
        results[index] = outcome
        completed += 1
        return Finished(outcome: outcome, closing: closing)
    }

    // MARK: Time

    /// When the next deadline falls due; nil when none is pending.
    func nextDeadline() -> UInt64? {
        var next: UInt64?
        if deadlineHead < deadlines.count { next = deadlines[deadlineHead].at }
        if lookupHead < lookupDeadlines.count { next = min(next ?? .max, lookupDeadlines[lookupHead].at) }
        return next
    }

    /// The deadlines due by `now`, lookups first, each in the order it was set.
    mutating func expired(now: UInt64) -> [Expiry] {
        var due: [Expiry] = []
        while lookupHead < lookupDeadlines.count, lookupDeadlines[lookupHead].at <= now {
            let index = lookupDeadlines[lookupHead].target
            lookupHead += 1
            if !states[index].done && !states[index].resolved { due.append(.lookup(target: index)) }
        }
        while deadlineHead < deadlines.count, deadlines[deadlineHead].at <= now {
            due.append(.attempt(fd: deadlines[deadlineHead].fd, serial: deadlines[deadlineHead].serial))
            deadlineHead += 1
        }
        if deadlineHead > 4096 && deadlineHead * 2 > deadlines.count {
            deadlines.removeFirst(deadlineHead)
            deadlineHead = 0
        }
        return due
    }

    // MARK: What things mean

    /// A lookup that got no answer in time.
    func lookupTimedOut(_ index: Int) -> CheckOutcome {
        CheckOutcome(index: index, target: targets[index], status: .dnsError,
                     error: "no answer from the name server within \(timeoutText)")
    }

    /// An attempt out of time: connected (after `connectNanos`) but no whole banner line (`received` so far), or
    /// never connected.
    func attemptTimedOut(_ index: Int, address: String, connectNanos: UInt64?, received: [UInt8]) -> CheckOutcome {
        guard let connectNanos else {
            return CheckOutcome(index: index, target: targets[index], status: .timeout,
                                error: "no answer within \(timeoutText)", address: address)
        }
        let partial = BannerParser.firstLine(received)
        return CheckOutcome(index: index, target: targets[index], status: .notSSH,
                            latencyMs: Self.milliseconds(connectNanos), banner: partial.isEmpty ? nil : partial,
                            error: "port open, but no SSH banner within \(timeoutText)", address: address)
    }

    /// A connect that failed with errno `code`.
    func failure(_ index: Int, _ code: Int32, address: String) -> CheckOutcome {
        let status: CheckStatus
        switch code {
        case ECONNREFUSED: status = .refused
        case ETIMEDOUT: status = .timeout
        default: status = .unreachable
        }
        return CheckOutcome(index: index, target: targets[index], status: status,
                            error: String(cString: strerror(code)).lowercased(), address: address)
    }

    /// What a connected attempt's bytes say so far (`ended`: the server closed, `resetText` why, if it reset); nil
    /// while more is needed.
    func banner(_ index: Int, received: [UInt8], ended: Bool, resetText: String?, connectNanos: UInt64,
                address: String) -> CheckOutcome? {
        let latency = Self.milliseconds(connectNanos)
        switch BannerParser.verdict(received, ended: ended) {
        case .needMore:
            return nil
        case .ssh(let line):
            return CheckOutcome(index: index, target: targets[index], status: .online, latencyMs: latency,
                                banner: line, address: address)
        case .notSSH(let line):
            let why = line.isEmpty
                ? "port open, but the connection closed without an SSH banner" + (resetText.map { " (\($0))" } ?? "")
                : "port open, but the server sent text that is not an SSH banner"
            return CheckOutcome(index: index, target: targets[index], status: .notSSH, latencyMs: latency,
                                banner: line.isEmpty ? nil : line, error: why, address: address)
        }
    }

    /// Nanoseconds as milliseconds with two decimals.
    static func milliseconds(_ nanos: UInt64) -> Double {
        (Double(nanos) / 10_000).rounded() / 100
    }
}
