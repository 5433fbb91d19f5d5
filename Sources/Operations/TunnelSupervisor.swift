import Basics
import Forwarding
import Foundation
import SSH
import Synchronization

/// One running forward as the supervisor holds it: a `Forwarder` over its own session (`LiveTunnelOpener`), or a
/// fake in tests.
public protocol TunnelLink: AnyObject, Sendable {
    var figures: TunnelFigures { get }
    /// Where it listens, once set up.
    var listening: String? { get }
    /// Blocks until `cancel` fires (then stops) or the session is lost.
    func run(until cancel: Cancellation) -> Forwarder.Ending
    /// Stops the forward and closes its session. Returns how many connections were open.
    @discardableResult func close() -> Int
}

/// A link's counts: connections open now and made, bytes each way (a `Forwarder`'s figures, or a fake's).
public struct TunnelFigures: Sendable, Equatable {
    public var openConnections: Int
    public var connections: Int
    public var bytesOut: Int
    public var bytesIn: Int

    public init(openConnections: Int = 0, connections: Int = 0, bytesOut: Int = 0, bytesIn: Int = 0) {
        self.openConnections = openConnections
        self.connections = connections
        self.bytesOut = bytesOut
        self.bytesIn = bytesIn
    }
}

/// Why a tunnel could not be opened; `retry`: trying again later may work (the server was down, the network).
public struct TunnelFailure: Error, Sendable, Equatable {
    public var message: String
    public var retry: Bool

    public init(_ message: String, retry: Bool) {
        self.message = message
        self.retry = retry
    }
}

/// Opens one tunnel: connects to its server and sets the forward up. Blocking; `cancel` stops it.
public typealias TunnelOpener = @Sendable (TunnelID, ForwardSpec, Cancellation) throws(TunnelFailure)
    -> any TunnelLink

/// Keeps saved tunnels up: each started tunnel has a thread that opens it, waits while it serves, and when its
/// session drops waits (`ReconnectSchedule`: exponential backoff with jitter, on an injectable `TunnelClock`) and
/// opens it again, until it is stopped. A failure that trying again would not cure (a port in use, a refused host
/// key) ends in `failed`. Figures add up over the tunnel's sessions; `snapshot` samples the rates. Used by the
/// interface's Tunnels screen (through its worker) and `essh forward NAME`.
public final class TunnelSupervisor: Sendable {
    private struct Entry {
        var spec: ForwardSpec
        var state: TunnelStatus.State = .starting(attempt: 0)
        /// When a reconnecting tunnel tries again (the clock's time).
        var retryAt: Double = 0
        var cancel: Cancellation?
        var link: (any TunnelLink)?
        /// Figures of the sessions before this one.
        var carried = TunnelFigures()
        var listening: String?
        var generation = 0
        var sample: (time: Double, out: Int, in: Int)?
        var rates: (out: Double, in: Double) = (0, 0)
    }

    private struct Shared {
        var entries: [TunnelID: Entry] = [:]
        var threads = 0
        var generation = 0
    }

    private let shared = Mutex(Shared())
    private let schedule: ReconnectSchedule
    private let clock: any TunnelClock
    private let opener: TunnelOpener
    private let onChange: @Sendable (TunnelStatus) -> Void

    /// `onChange` hears every change of state (not of figures), on the tunnel's thread.
    public init(schedule: ReconnectSchedule = ReconnectSchedule(), clock: any TunnelClock = SystemTunnelClock(),
                opener: @escaping TunnelOpener, onChange: @escaping @Sendable (TunnelStatus) -> Void = { _ in }) {
        self.schedule = schedule
        self.clock = clock
        self.opener = opener
        self.onChange = onChange
    }

    /// Starts `id` (nothing when it runs already). A forward the parser refuses fails at once.
    public func start(_ id: TunnelID) {
        let spec: ForwardSpec
        do throws(ForwardError) {
            spec = try ForwardSpecParser.parseSaved(id.forward)
        } catch {
            let status = shared.withLock { shared -> TunnelStatus in
                shared.generation += 1
                var entry = shared.entries[id] ?? Entry(spec: ForwardSpec(kind: .dynamic, bindPort: 0))
                entry.state = .failed(error.message)
                entry.generation = shared.generation
                shared.entries[id] = entry
                return Self.status(id, entry, now: 0)
            }
            onChange(status)
            return
        }
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            set(id, generation: nil, .failed(error.message))
            return
        }
        let generation = shared.withLock { shared -> Int? in
            if let old = shared.entries[id], old.state.isRunning { return nil }
            shared.generation += 1
            var entry = shared.entries[id] ?? Entry(spec: spec)
            entry.spec = spec
            entry.state = .starting(attempt: 0)
            entry.cancel = cancel
            entry.link = nil
            entry.carried = Entry(spec: spec).carried
            entry.sample = nil
            entry.rates = (0, 0)
            entry.listening = nil
            entry.generation = shared.generation
            shared.entries[id] = entry
            shared.threads += 1
            return shared.generation
        }
        guard let generation else { return }
        notify(id)
        let started = PlainThread.start { [self] in
            keepUp(id, spec: spec, cancel: cancel, generation: generation)
            shared.withLock { $0.threads -= 1 }
        }
        if !started {
            shared.withLock { $0.threads -= 1 }
            set(id, generation: generation, .failed("Cannot start the tunnel's thread."))
        }
    }

    /// Stops `id` (its connections are closed); nothing when it is not running.
    public func stop(_ id: TunnelID) {
        let taken = shared.withLock { shared -> (Cancellation?, (any TunnelLink)?)? in
            guard var entry = shared.entries[id], entry.state.isRunning else { return nil }
            shared.generation += 1
            entry.generation = shared.generation
            entry.state = .stopped
            let link = entry.link
            if let link { entry.carried = Self.adding(entry.carried, link.figures) }
            entry.link = nil
            entry.rates = (0, 0)
            shared.entries[id] = entry
            return (entry.cancel, link)
        }
        guard let (cancel, link) = taken else { return }
        cancel?.cancel()
        // Closed here, not left to its thread: a restart binds the same port next.
        link?.close()
        notify(id)
    }

    /// Stops `id` and starts it again (a new session).
    public func restart(_ id: TunnelID) {
        stop(id)
        start(id)
    }

    /// Forgets a tunnel that was deleted (stopping it first).
    public func forget(_ id: TunnelID) {
        stop(id)
        _ = shared.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Stops every tunnel and waits (at most `seconds`) for their sessions to close. Returns how many were running.
    @discardableResult
    public func stopAll(waiting seconds: Double = 3) -> Int {
        let running = shared.withLock { shared in shared.entries.filter { $0.value.state.isRunning }.map(\.key) }
        for id in running { stop(id) }
        let end = Date().addingTimeInterval(seconds)
        while shared.withLock({ $0.threads }) > 0 && Date() < end { usleep(10_000) }
        return running.count
    }

    /// How many tunnels are running (starting, up or reconnecting).
    public var runningCount: Int { shared.withLock { $0.entries.values.filter { $0.state.isRunning }.count } }

    /// Every tunnel the supervisor knows, by server and forward, with its figures; samples the rates (bytes since
    /// the last snapshot over the time since it).
    public func snapshot() -> [TunnelStatus] {
        let now = clock.now()
        let entries = shared.withLock { shared -> [(TunnelID, Entry)] in
            for (id, var entry) in shared.entries {
                let figures = Self.totals(entry)
                if let sample = entry.sample, now - sample.time >= 0.2 {
                    let span = now - sample.time
                    entry.rates = (Double(max(0, figures.bytesOut - sample.out)) / span,
                                   Double(max(0, figures.bytesIn - sample.in)) / span)
                    entry.sample = (now, figures.bytesOut, figures.bytesIn)
                } else if entry.sample == nil {
                    entry.sample = (now, figures.bytesOut, figures.bytesIn)
                }
                if !entry.state.isRunning { entry.rates = (0, 0) }
                shared.entries[id] = entry
            }
            return shared.entries.map { ($0.key, $0.value) }
        }
        return entries.map { Self.status($0.0, $0.1, now: now) }.sorted { $0.id < $1.id }
    }

    /// One tunnel's status now (no rate sampling).
    public func status(_ id: TunnelID) -> TunnelStatus? {
        let now = clock.now()
        return shared.withLock { $0.entries[id] }.map { Self.status(id, $0, now: now) }
    }

    // MARK: - The tunnel's thread

    private func keepUp(_ id: TunnelID, spec: ForwardSpec, cancel: Cancellation, generation: Int) {
        var attempt = 0
        while !cancel.isCancelled {
            let reason: String
            do throws(TunnelFailure) {
                let link = try opener(id, spec, cancel)
                let current = shared.withLock { shared -> Bool in
                    guard var entry = shared.entries[id], entry.generation == generation else { return false }
                    entry.link = link
                    entry.listening = link.listening
                    entry.state = .up
                    shared.entries[id] = entry
                    return true
                }
                guard current, !cancel.isCancelled else {
                    link.close()
                    break
                }
                notify(id)
                attempt = 0
                let ending = link.run(until: cancel)
                let figures = link.figures
                link.close()
                shared.withLock { shared in
                    guard var entry = shared.entries[id], entry.generation == generation else { return }
                    entry.carried = Self.adding(entry.carried, figures)
                    entry.link = nil
                    shared.entries[id] = entry
                }
                if case .lost(let error) = ending {
                    reason = "the connection was lost: \(error.situation)"
                } else {
                    break
                }
            } catch {
                if cancel.isCancelled { break }
                guard error.retry else {
                    set(id, generation: generation, .failed(error.message))
                    return
                }
                reason = error.message
            }
            attempt += 1
            let delay = schedule.delay(attempt: attempt, unit: clock.random())
            let retryAt = clock.now() + delay
            set(id, generation: generation, .reconnecting(seconds: Int(delay.rounded(.up)), attempt: attempt,
                                                          reason: reason), retryAt: retryAt)
            guard clock.wait(delay, cancel: cancel) else { break }
            set(id, generation: generation, .starting(attempt: attempt))
        }
        set(id, generation: generation, .stopped)
    }

    private func set(_ id: TunnelID, generation: Int?, _ state: TunnelStatus.State, retryAt: Double = 0) {
        let changed = shared.withLock { shared -> Bool in
            guard var entry = shared.entries[id], generation == nil || entry.generation == generation else {
                return false
            }
            entry.state = state
            entry.retryAt = retryAt
            if !state.isRunning { entry.link = nil }
            shared.entries[id] = entry
            return true
        }
        if changed { notify(id) }
    }

    private func notify(_ id: TunnelID) {
        if let status = status(id) { onChange(status) }
    }

    private static func totals(_ entry: Entry) -> TunnelFigures {
        guard let link = entry.link else { return entry.carried }
        return adding(entry.carried, link.figures)
    }

    private static func adding(_ a: TunnelFigures, _ b: TunnelFigures) -> TunnelFigures {
        TunnelFigures(openConnections: b.openConnections, connections: a.connections + b.connections,
                      bytesOut: a.bytesOut + b.bytesOut, bytesIn: a.bytesIn + b.bytesIn)
    }

    private static func status(_ id: TunnelID, _ entry: Entry, now: Double) -> TunnelStatus {
        let figures = totals(entry)
        var state = entry.state
        if case .reconnecting(_, let attempt, let reason) = state {
            state = .reconnecting(seconds: max(0, Int((entry.retryAt - now).rounded(.up))), attempt: attempt,
                                  reason: reason)
        }
        return TunnelStatus(id: id, state: state, openConnections: entry.link == nil ? 0 : figures.openConnections,
                            connections: figures.connections, bytesOut: figures.bytesOut, bytesIn: figures.bytesIn,
                            rateOut: entry.rates.out, rateIn: entry.rates.in,
                            listening: entry.state == .up ? entry.listening : nil)
    }
}
