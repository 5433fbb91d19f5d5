import Foundation
import Synchronization

/// The jump hosts a session runs through: each hop's logged-in session and the relay that carries the next hop's
/// connection over one of its channels. The final session owns its chain and tears it down after itself, nearest
/// hop first (its relay stopped, then its session closed), so every goodbye still has a way out.
final class JumpChain: Sendable {
    private struct Hop {
        let session: SSHSession
        let relay: ChannelRelay
    }

    private let hops = Mutex<[Hop]>([])
    /// The hops' names, nearest first (`ConnectOptions.name`, or the host).
    let names: [String]

    private init(names: [String]) { self.names = names }

    /// The jump hosts of `options`, nearest first, each without jumps of its own (a hop's own jumps come before it,
    /// as OpenSSH uses a jump host's ProxyJump to reach it).
    static func hops(of options: ConnectOptions) -> [ConnectOptions] {
        options.jumps.flatMap { hop -> [ConnectOptions] in
            var bare = hop
            bare.jumps = []
            return hops(of: hop) + [bare]
        }
    }

    /// Connects and logs in to every hop in turn (the first directly, each next one over a channel of the one
    /// before), and opens a channel from the last hop to `destination`. Returns the chain and the socket on which
    /// the destination's session is to run. Errors name the hop; on failure what was made is closed.
    static func reach(_ destination: ConnectOptions, hops: [ConnectOptions], prompter: Prompter,
                      cancel: Cancellation?, onStage: (ConnectStage) -> Void,
                      onHopStage: (HopStage) -> Void) throws(SSHError) -> (JumpChain, SSHSession.Transport) {
        let chain = JumpChain(names: hops.map(shortName))
        do throws(SSHError) {
            var transport = SSHSession.Transport.direct
            for (index, hop) in hops.enumerated() {
                var lastStage: ConnectStage?
                let total = hops.count + 1
                let session: SSHSession
                do throws(SSHError) {
                    session = try SSHSession.login(hop, prompter: prompter, cancel: cancel, transport: transport,
                                                   chain: nil, onStage: { stage in
                        lastStage = stage
                        onStage(stage)
                        onHopStage(HopStage(hop: index, hops: total, name: shortName(hop), stage: stage))
                    })
                } catch {
                    throw named(error, hop: hop, via: index == 0 ? nil : shortName(hops[index - 1]), stage: lastStage)
                }
                let relay: ChannelRelay
                do throws(SSHError) {
                    relay = try ChannelRelay(session: session, name: shortName(hop))
                } catch {
                    session.disconnect()
                    throw error
                }
                chain.hops.withLock { $0.append(Hop(session: session, relay: relay)) }
                let next = index + 1 < hops.count ? hops[index + 1] : destination
                let stage = ConnectStage.connecting(
                    address: "\(ChannelOpenFailure.target(host: next.host, port: next.port)) through \(shortName(hop))")
                onStage(stage)
                onHopStage(HopStage(hop: index + 1, hops: total, name: shortName(next), stage: stage))
                transport = try chain.channel(to: next, cancel: cancel)
            }
            return (chain, transport)
        } catch {
            chain.teardown()
            throw error
        }
    }

    /// A socket joined, through the last hop's relay, to a channel to `next`'s host and port.
    private func channel(to next: ConnectOptions, cancel: Cancellation?) throws(SSHError) -> SSHSession.Transport {
        let relays = hops.withLock { $0.map(\.relay) }
        guard let last = relays.last else {
            throw SSHError(.library, "empty chain", "No jump host is connected.")
        }
        return try Self.channel(through: last, upstream: relays, to: next, cancel: cancel)
    }

    /// A socket joined by `relay` to a channel to `next`'s host and port; `upstream` are the relays the connection
    /// depends on (to say which was lost).
    static func channel(through relay: ChannelRelay, upstream: [ChannelRelay], to next: ConnectOptions,
                        cancel: Cancellation?) throws(SSHError) -> SSHSession.Transport {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            let reason = String(cString: strerror(errno))
            throw SSHError(.io, "socketpair: \(reason)", "Cannot make the socket pair a jump host's connection runs "
                           + "on (\(reason)): too many files are open.")
        }
        do throws(SSHError) {
            try relay.open(to: next.host, port: next.port, descriptor: pair[1], timeout: next.connectTimeout,
                           cancel: cancel)
        } catch {
            close(pair[0])
            throw error
        }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        let address = "\(ChannelOpenFailure.target(host: next.host, port: next.port)) through \(relay.name)"
        return .socket(fd: pair[0], address: address, upstreamLoss: {
            upstream.lazy.compactMap(\.lossDescription).first
        })
    }

    /// Closes the hops, nearest to the destination first. Idempotent.
    func teardown() {
        let all = hops.withLock { hops in
            defer { hops.removeAll() }
            return hops
        }
        for hop in all.reversed() {
            hop.relay.stop()
            hop.session.disconnect()
        }
    }

    // MARK: - Words

    /// "bastion", or the host when the hop has no name.
    static func shortName(_ o: ConnectOptions) -> String { o.name ?? o.host }

    /// "bastion (10.0.0.1:22)", or "10.0.0.1:22" when the hop has no name.
    static func fullName(_ o: ConnectOptions) -> String {
        let target = ChannelOpenFailure.target(host: o.host, port: o.port)
        return o.name.map { "\($0) (\(target))" } ?? target
    }

    /// `error` of hop `hop` with the hop named: the first hop by name and address ("bastion (10.0.0.1:22) refused
    /// the connection: …"), one reached through another by name, with the hop it was seen through ("10.1.2.3: host
    /// key changed (seen through bastion)"). `stage` is the stage the hop had reached (a failure while resolving or
    /// connecting is the connection's). Kind and remedy stay; cancels are left as they are.
    static func named(_ error: SSHError, hop: ConnectOptions, via: String?, stage: ConnectStage?) -> SSHError {
        if error.kind == .cancelled { return error }
        let connecting: Bool
        switch stage {
        case .resolving?, .connecting?: connecting = via == nil
        default: connecting = false
        }
        if connecting {
            let situation = error.kind == .refused
                ? "\(fullName(hop)) refused the connection: no SSH server listens there."
                : "\(fullName(hop)): \(error.situation)"
            return SSHError(error.kind, error.detail, situation, remedy: error.remedy)
        }
        let who = via == nil ? fullName(hop) : shortName(hop)
        let summary: String
        switch error.kind {
        case .hostKeyChanged: summary = "host key changed"
        case .hostKeyUnknown: summary = "host key unknown"
        case .hostKeyRevoked: summary = "host key revoked"
        case .hostKeyRejected: summary = "host key not accepted"
        case .authenticationFailed: summary = "permission denied"
        case .keyFile: summary = "key file unusable"
        case .knownHostsFile: summary = "known_hosts file unusable"
        case .notSSH: summary = "not an SSH server"
        case .noCommonAlgorithm: summary = "no common algorithm"
        case .timedOut: summary = "timed out"
        case .disconnected: summary = "connection lost"
        default: summary = "connection failed"
        }
        let through: String
        switch (via, error.kind) {
        case (let via?, .hostKeyChanged), (let via?, .hostKeyUnknown), (let via?, .hostKeyRevoked),
             (let via?, .hostKeyRejected):
            through = " (seen through \(via))"
        case (let via?, _):
            through = " (through \(via))"
        case (nil, _):
            through = ""
        }
        let separator = error.situation.contains("\n") ? "\n" : " "
        return SSHError(error.kind, error.detail, "\(who): \(summary)\(through).\(separator)\(error.situation)",
                        remedy: error.remedy)
    }
}
