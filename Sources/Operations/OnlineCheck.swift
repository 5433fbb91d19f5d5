import Basics
import Fleet
import Foundation
import Inventory
import Reachability
import SSH
import Synchronization

/// Online checks of servers, each the way it is reached: direct ones by Reachability's `Checker` (one epoll loop),
/// those behind jump hosts through their bastion — a `direct-tcpip` channel per server, its SSH banner read from the
/// channel's socket-pair end with the direct check's rules (`ConnectedCheck`), statuses as the bastion saw them, and
/// `via` naming the bastion. Front ends give every server with its jump chain (empty for direct) and get one outcome
/// per server, in order; they never know which way a server went.
///
/// A bastion answers an open to a silent server only when its own connect gives up, so each open is bounded by the
/// check's timeout. With eSSH's libssh2 (patch 0003) one bastion session keeps `checksPerSession` opens in flight at
/// once; with another libssh2 a session opens one channel at a time, and the servers are spread over more sessions
/// (`sessionsPerBastion` at most, each one login, at most 8 logging in at once: a default sshd drops logins beyond
/// MaxStartups' 10). DECISIONS, 2026-11-24 (fleet and checks through a bastion; several channel opens in flight).
public struct OnlineCheck: Sendable {
    /// One server to check.
    public struct Target: Sendable {
        public var host: String
        public var port: Int
        /// The jump hosts the server is reached through, nearest first, each with its own options (how a
        /// connection to it would log in); empty: checked directly.
        public var jumps: [ConnectOptions]

        /// A target.
        public init(host: String, port: Int, jumps: [ConnectOptions] = []) {
            self.host = host
            self.port = port
            self.jumps = jumps
        }

        /// The jump hosts a connection to saved `server` would pass through, for its check: empty when it has none,
        /// or when its connection options cannot be made (a check needs no key; the direct check says what it finds).
        /// `essh check` and the interface's check both take a saved server's way from here.
        public static func jumps(of server: Server, context: ConnectionProfile.Context) -> [ConnectOptions] {
            guard !server.jump.isEmpty else { return [] }
            return (try? ConnectionProfile(server: server).options(context: context))?.jumps ?? []
        }

        /// `jumps(of:context:)` for each of `servers`, in order, each distinct jump text resolved once: behind one
        /// bastion, 2,000 servers cost one lookup of its chain (saved servers, ~/.ssh/config), not 2,000 (which took
        /// 3 s of a 2,000-server check, bench/results/jump-fleet-2026-11-24b.md). A server named in the chain it
        /// would share is resolved alone (its loop is refused there).
        public static func jumps(of servers: [Server], context: ConnectionProfile.Context) -> [[ConnectOptions]] {
            var resolved: [String: [ConnectOptions]] = [:]
            return servers.map { server in
                guard !server.jump.isEmpty else { return [] }
                if let shared = resolved[server.jump], !names(in: shared).contains(server.name) { return shared }
                let own = jumps(of: server, context: context)
                if !own.isEmpty && resolved[server.jump] == nil { resolved[server.jump] = own }
                return own
            }
        }

        /// The name of every hop of `chain`, their own jump hosts' included.
        private static func names(in chain: [ConnectOptions]) -> Set<String> {
            var found: Set<String> = []
            for hop in chain {
                found.insert(hop.name ?? hop.host)
                found.formUnion(names(in: hop.jumps))
            }
            return found
        }
    }

    /// Bastion sessions per jump chain, at most: one per `checksPerSession` servers behind it up to this. Each
    /// session is one more login on the bastion. With opens side by side (bench/results/jump-check-2026-11-24.md)
    /// N silent servers take about N ÷ (sessions × checksPerSession) × the timeout; one at a time
    /// (bench/results/jump-fleet-2026-11-24.md) a silent server holds a session for the whole timeout: N ÷ sessions.
    public static let defaultSessionsPerBastion = ChannelRelay.opensSideBySide ? 4 : 64

    /// Servers checked at once through one bastion session (a thread each, waiting for its open and banner): the
    /// relay keeps their opens in flight side by side; 1 when it opens one at a time.
    static let checksPerSession = ChannelRelay.opensSideBySide ? 500 : 1

    /// Servers behind a chain per bastion session before another session is logged in.
    static let serversPerSession = ChannelRelay.opensSideBySide ? 1000 : 8

    public let options: Checker.Options
    public let sessionsPerBastion: Int
    private let checker: Checker

    /// A check with the direct checker's `options` (its timeout is each relayed open's and banner's too).
    public init(options: Checker.Options = Checker.Options(),
                sessionsPerBastion: Int = OnlineCheck.defaultSessionsPerBastion) throws(ReachabilityError) {
        checker = try Checker(options: options)
        guard sessionsPerBastion >= 1 else {
            throw ReachabilityError(.invalidOption, "\(sessionsPerBastion)",
                                    "At least one session per bastion is needed.")
        }
        self.options = options
        self.sessionsPerBastion = sessionsPerBastion
    }

    /// Checks every target; returns one outcome per target, in order. `onResult` runs on the calling thread as each
    /// outcome is known; the call blocks until all are.
    public func check(_ targets: [Target], onResult: (CheckOutcome) -> Void = { _ in })
        throws(ReachabilityError) -> [CheckOutcome] {
        if targets.isEmpty { return [] }
        let inbox = Inbox()
        var direct: [Int] = []
        var chains: [String: [Int]] = [:]
        var order: [String] = []
        for (i, target) in targets.enumerated() {
            if target.jumps.isEmpty {
                direct.append(i)
            } else {
                let key = JumpPool.chainIdentity(of: probe(target))
                if chains[key] == nil { order.append(key) }
                chains[key, default: []].append(i)
            }
        }
        let pool = JumpPool()
        defer { pool.close() }
        var expected = 0
        if !direct.isEmpty {
            expected += direct.count
            let checker = checker
            let list = direct.map { CheckTarget(host: targets[$0].host, port: targets[$0].port) }
            let indices = direct
            let started = PlainThread.start(stackSize: 1 << 20) {
                do throws(ReachabilityError) {
                    _ = try checker.check(list) { outcome in
                        var outcome = outcome
                        outcome.index = indices[outcome.index]
                        inbox.put(.success(outcome))
                    }
                } catch {
                    inbox.put(.failure(error))
                }
            }
            if !started {
                throw ReachabilityError(.eventLoop, "pthread_create failed",
                                        "Cannot start the thread that checks the direct servers.")
            }
        }
        for key in order {
            let indices = chains[key] ?? []
            expected += indices.count
            startChain(indices.map { (index: $0, target: targets[$0]) }, pool: pool, inbox: inbox)
        }
        var results = [CheckOutcome?](repeating: nil, count: targets.count)
        var received = 0
        var directReceived = 0
        var failure: ReachabilityError?
        while received < expected {
            switch inbox.take() {
            case .success(let outcome):
                guard results[outcome.index] == nil else { continue }
                results[outcome.index] = outcome
                received += 1
                if targets[outcome.index].jumps.isEmpty { directReceived += 1 }
                onResult(outcome)
            case .failure(let error):
                // The direct loop stopped: the rest of its servers get no outcome.
                failure = error
                expected -= direct.count - directReceived
            }
        }
        if let failure { throw failure }
        return results.enumerated().map { i, outcome in
            outcome ?? CheckOutcome(index: i, target: CheckTarget(host: targets[i].host, port: targets[i].port),
                                    status: .unreachable, error: "not checked")
        }
    }

    /// The target as connect options (its host, port and jumps), for the pool.
    private func probe(_ target: Target) -> ConnectOptions {
        var o = ConnectOptions(host: target.host, port: target.port, user: "", knownHostsFile: "")
        o.jumps = target.jumps
        return o
    }

    /// The servers behind one chain: the first bastion session logged in alone (a bastion that fails fails every
    /// server behind it with its error, tried once), then the others, at most `loginsAtOnce` logging in together
    /// (a default sshd drops unauthenticated connections beyond MaxStartups' 10); each session is served by a worker
    /// taking the next server. A later session failing only leaves the work to the others.
    private func startChain(_ members: [(index: Int, target: Target)], pool: JumpPool, inbox: Inbox) {
        let queue = Mutex(0)
        let width = Self.sessions(for: members.count, cap: sessionsPerBastion)
        let timeout = options.timeout
        let route = probe(members[0].target)
        let bastion = route.hopChain.last.map { $0.name ?? $0.host } ?? "bastion"
        let take = { @Sendable () -> Int? in
            queue.withLock { next -> Int? in
                guard next < members.count else { return nil }
                defer { next += 1 }
                return next
            }
        }
        let work = { @Sendable (relay: ChannelRelay) in
            while let next = take() {
                inbox.put(.success(Self.checkThrough(relay, members[next].index, members[next].target,
                                                     timeout: timeout, via: bastion)))
            }
        }
        // Up to `checksPerSession` servers at once per session (their opens in flight side by side), the last on
        // the calling thread.
        let serve = { @Sendable (relay: ChannelRelay) in
            let more = min(Self.checksPerSession, (members.count + width - 1) / width) - 1
            for _ in 0..<max(0, more) where queue.withLock({ $0 }) < members.count {
                _ = PlainThread.start(stackSize: 256 * 1024) { work(relay) }
            }
            work(relay)
        }
        let connect = { @Sendable (slot: Int) throws(SSHError) -> ChannelRelay in
            // The bastion's own connect timeouts bound this wait.
            try pool.relay(for: route, slot: slot, prompter: NonInteractivePrompter(),
                           deadline: Date().addingTimeInterval(3600), cancel: nil)
        }
        let started = PlainThread.start {
            let first: ChannelRelay
            do throws(SSHError) {
                first = try connect(0)
            } catch {
                for member in members {
                    inbox.put(.success(Self.bastionFailed(member.index, member.target, error, via: bastion)))
                }
                return
            }
            let gate = DispatchSemaphore(value: Self.loginsAtOnce)
            for slot in 1..<width {
                _ = PlainThread.start {
                    gate.wait()
                    // Nothing left to take: no more logins.
                    let relay = queue.withLock({ $0 }) < members.count ? try? connect(slot) : nil
                    gate.signal()
                    if let relay { serve(relay) }
                }
            }
            serve(first)
        }
        if !started {
            for member in members {
                inbox.put(.success(CheckOutcome(index: member.index, target: Self.plain(member.target),
                                                status: .unreachable, error: "cannot start a thread", via: bastion)))
            }
        }
    }

    /// Bastion sessions for `count` servers behind one chain: one per `perSession` servers, at most `cap`.
    static func sessions(for count: Int, cap: Int, perSession: Int = serversPerSession) -> Int {
        max(1, min(cap, (count + perSession - 1) / perSession))
    }

    /// Bastion logins in progress at once, per chain.
    static let loginsAtOnce = 8

    // MARK: - One server through a bastion

    /// Opens a channel to the target through `relay` (its timeout the check's) and reads the banner from the
    /// channel's socket-pair end.
    static func checkThrough(_ relay: ChannelRelay, _ index: Int, _ target: Target, timeout: Double,
                             via: String) -> CheckOutcome {
        let started = Date()
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return CheckOutcome(index: index, target: plain(target), status: .unreachable,
                                error: "no socket: \(String(cString: strerror(errno)))", via: via)
        }
        defer { close(pair[0]) }
        do throws(SSHError) {
            try relay.open(to: target.host, port: target.port, descriptor: pair[1], timeout: timeout)
        } catch {
            return openFailed(index, target, error, timeout: timeout, via: via)
        }
        let connected = Date().timeIntervalSince(started)
        var outcome = ConnectedCheck.outcome(index: index, target: plain(target), fd: pair[0], timeout: timeout,
                                             started: started, connectedAfter: connected, address: target.host)
        outcome.via = via
        return outcome
    }

    /// A channel the bastion did not open, as the status a direct check would give what the bastion saw.
    static func openFailed(_ index: Int, _ target: Target, _ error: SSHError, timeout: Double,
                           via: String) -> CheckOutcome {
        let status: CheckStatus
        let text: String
        switch ChannelOpenFailure.reason(of: error) {
        case .connectFailed(let description)?:
            switch error.kind {
            case .refused: status = .refused
            case .timedOut: status = .timeout
            default: status = .unreachable
            }
            text = (description?.lowercased() ?? "connect failed") + " (seen from \(via))"
        case .administrativelyProhibited?, .resourceShortage?, .unknownChannelType?:
            status = .unreachable
            text = error.situation
        case nil:
            if error.kind == .timedOut && error.detail == "channel open timed out" {
                status = .timeout
                text = "no answer within \(DurationText.text(timeout, .number)) s (through \(via))"
            } else {
                status = .unreachable
                text = error.situation
            }
        }
        return CheckOutcome(index: index, target: plain(target), status: status, error: text, via: via)
    }

    /// Every server behind a bastion that could not be logged in to: unreachable, with the bastion's own error.
    static func bastionFailed(_ index: Int, _ target: Target, _ error: SSHError, via: String) -> CheckOutcome {
        CheckOutcome(index: index, target: plain(target), status: .unreachable, error: error.situation, via: via)
    }

    static func plain(_ target: Target) -> CheckTarget { CheckTarget(host: target.host, port: target.port) }
}

/// Outcomes from the loop's and the bastions' threads, taken one by one by the calling thread.
private final class Inbox: Sendable {
    private let items = Mutex<[Result<CheckOutcome, ReachabilityError>]>([])
    private let ready = DispatchSemaphore(value: 0)

    func put(_ item: Result<CheckOutcome, ReachabilityError>) {
        items.withLock { $0.append(item) }
        ready.signal()
    }

    func take() -> Result<CheckOutcome, ReachabilityError> {
        ready.wait()
        return items.withLock { $0.removeFirst() }
    }
}
