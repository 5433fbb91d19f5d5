import Basics
import Foundation
import SSH
import Synchronization

/// The bastion sessions of one fleet run (or one check), shared by every target behind them: one logged-in session
/// per distinct jump chain (and `slot`, for checks that spread their targets over a few), holding the chain's last
/// hop — reached through the earlier hops by `SSHSession.connectJumpHost` — with a `ChannelRelay` on it. Each target
/// then connects with `SSHSession.connect(_:through:)`, so 200 targets behind one bastion cost one bastion login.
///
/// A bastion is connected lazily, on a thread of its own, when the first target needs it; every target behind it
/// (the first included) waits for it, each bounded by its own deadline and cancel, so a slow bastion holds nobody
/// past their time. A bastion that fails is not tried again in the run: every target behind it gets the bastion's
/// named error. `close()` (the run's end) stops the relays and logs out; a bastion still connecting is cancelled.
public final class JumpPool: Sendable {
    private let entries = Mutex<[Key: Entry]>([:])
    private let closed = Mutex(false)
    /// Fired by `close()`: cancels the bastions still connecting.
    private let closing: Cancellation?

    /// An empty pool.
    public init() {
        closing = try? Cancellation()
    }

    deinit { close() }

    /// Identifies a bastion session: every hop of the chain as it logs in, and the slot.
    struct Key: Hashable {
        var hops: [String]
        var slot: Int
    }

    /// One bastion: connecting, ready or failed; `settled` is fired once it is no longer connecting (a pipe the
    /// waiters poll beside their own cancel).
    final class Entry: Sendable {
        enum State {
            case connecting
            case ready(SSHSession, ChannelRelay)
            case failed(SSHError)
        }

        let state = Mutex(State.connecting)
        let settled: Cancellation

        init(settled: Cancellation) { self.settled = settled }

        func settle(_ new: State) {
            state.withLock { $0 = new }
            settled.cancel()
        }
    }

    /// The chain's identity: each hop's user, host, port, name, keys, agent and password use, known_hosts files,
    /// host-key policy and algorithms. Two targets whose chains differ in any of these get separate bastions.
    static func key(_ hops: [ConnectOptions], slot: Int) -> Key {
        Key(hops: hops.map { hop in
            [hop.user, hop.host, String(hop.port), hop.name ?? "", hop.identityFiles.joined(separator: "\u{1}"),
             String(hop.useAgent), String(hop.allowPassword), String(hop.allowKeyboardInteractive),
             hop.knownHostsFile, hop.globalKnownHostsFiles.joined(separator: "\u{1}"), "\(hop.hostKeyPolicy)",
             String(hop.hashKnownHosts), "\(hop.algorithms)", String(hop.keepaliveInterval),
             String(hop.connectTimeout)].joined(separator: "\u{0}")
        }, slot: slot)
    }

    /// Equal for two servers whose jump chains would share a bastion session in this pool (`options.jumps` as
    /// `relay(for:)` reads them): for callers grouping servers by chain.
    public static func chainIdentity(of options: ConnectOptions) -> String {
        key(options.hopChain, slot: 0).hops.joined(separator: "\u{2}")
    }

    /// The relay on the last jump host of `target`'s chain (`target.jumps` must not be empty), connecting it first
    /// when this is the first target to need it (with `prompter`, which answers for the jump hosts as it would in a
    /// single connection). Waits for a bastion another target is connecting, until `deadline` or `cancel`. Throws
    /// the bastion's error (the same for every target behind it), or why the wait ended.
    public func relay(for target: ConnectOptions, slot: Int = 0, prompter: any Prompter, deadline: Date,
                      cancel: Cancellation?) throws(SSHError) -> ChannelRelay {
        let hops = target.hopChain
        guard let last = hops.last else {
            throw SSHError(.library, "no jump hosts", "\(target.host) is not reached through a jump host.")
        }
        let key = Self.key(hops, slot: slot)
        let (entry, fresh) = try entry(for: key)
        if fresh { start(entry, hops: hops, last: last, prompter: prompter) }
        try wait(for: entry, name: Self.name(last), deadline: deadline, cancel: cancel)
        switch entry.state.withLock({ $0 }) {
        case .ready(_, let relay):
            // A bastion lost during the run is not connected again: everyone behind it hears why.
            if let failure = relay.failure {
                throw SSHError(failure.kind == .cancelled ? .disconnected : failure.kind, failure.detail,
                               "The connection to \(Self.name(last)) was lost: \(failure.situation)")
            }
            return relay
        case .failed(let error): throw error
        case .connecting:
            throw SSHError(.library, "bastion not settled", "\(Self.name(last)) is still connecting.")
        }
    }

    /// How many bastion sessions logged in during this pool's life (for tests and benchmarks).
    public var logins: Int {
        entries.withLock { entries in
            entries.values.filter { entry in
                if case .ready = entry.state.withLock({ $0 }) { return true }
                return false
            }.count
        }
    }

    /// Stops every relay and logs out of every bastion, nearest to the targets first; bastions still connecting
    /// are cancelled. Targets still running through them see their connection end. Idempotent; no bastion is made
    /// after it.
    public func close() {
        let already = closed.withLock { closed -> Bool in
            defer { closed = true }
            return closed
        }
        guard !already else { return }
        closing?.cancel()
        let all = entries.withLock { entries -> [Entry] in
            defer { entries.removeAll() }
            return Array(entries.values)
        }
        for entry in all {
            if case .ready(let session, let relay) = entry.state.withLock({ $0 }) {
                relay.stop()
                session.disconnect()
            }
        }
    }

    /// How messages call a hop: its name ("bastion"), else its host, as SSH's own messages do.
    static func name(_ hop: ConnectOptions) -> String { hop.name ?? hop.host }

    // MARK: - Connecting and waiting

    private func entry(for key: Key) throws(SSHError) -> (Entry, fresh: Bool) {
        let closedNow = closed.withLock { $0 }
        if closedNow {
            throw SSHError(.disconnected, "pool closed", "The run is over: its jump host connections are closed.")
        }
        if let existing = entries.withLock({ $0[key] }) { return (existing, false) }
        let settled = try Cancellation()
        let made = Entry(settled: settled)
        let (entry, fresh) = entries.withLock { entries -> (Entry, Bool) in
            if let existing = entries[key] { return (existing, false) }
            entries[key] = made
            return (made, true)
        }
        return (entry, fresh)
    }

    /// Connects the bastion on a thread of its own, so no target's deadline cuts it short for the others.
    private func start(_ entry: Entry, hops: [ConnectOptions], last: ConnectOptions, prompter: any Prompter) {
        var through = last
        through.jumps = Array(hops.dropLast())
        let hop = through
        let closing = closing
        let started = PlainThread.start { [self] in
            do throws(SSHError) {
                let session = try SSHSession.connectJumpHost(hop, prompter: prompter, cancel: closing)
                let relay: ChannelRelay
                do throws(SSHError) {
                    relay = try ChannelRelay(session: session, name: Self.name(last))
                } catch {
                    session.disconnect()
                    throw error
                }
                // Closed while it logged in: nobody will stop it later.
                if closed.withLock({ $0 }) {
                    relay.stop()
                    session.disconnect()
                    entry.settle(.failed(SSHError(.disconnected, "pool closed",
                                                  "The run is over: its jump host connections are closed.")))
                    return
                }
                entry.settle(.ready(session, relay))
            } catch {
                entry.settle(.failed(error))
            }
        }
        if !started {
            entry.settle(.failed(SSHError(.io, "pthread_create failed",
                                          "Cannot start the thread that connects \(Self.name(last)).")))
        }
    }

    /// Waits until `entry` settles, `deadline` passes or `cancel` fires.
    private func wait(for entry: Entry, name: String, deadline: Date, cancel: Cancellation?) throws(SSHError) {
        while true {
            if case .connecting = entry.state.withLock({ $0 }) {} else { return }
            if cancel?.isCancelled == true {
                throw SSHError(.cancelled, "", "Cancelled while waiting for \(name) to connect.")
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                throw SSHError(.timedOut, "jump host not connected in time",
                               "\(name) was not connected in time: the jump host is slow or does not answer.")
            }
            var fds = [pollfd(fd: entry.settled.pollDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: cancel?.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, Int32(min(left, 60) * 1000) + 1)
        }
    }
}
