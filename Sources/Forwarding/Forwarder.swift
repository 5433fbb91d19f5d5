import Basics
import Dispatch
import Foundation
import LocalProcess
import SSH
import Synchronization

/// Port forwards over one logged-in session: -L and -D listen here, -R asks the server to listen; every connection
/// becomes a channel of the session's `ChannelRelay` (one thread owns the session). A front end starts it, reads its
/// live figures (`figures`), and stops it; `essh forward` runs one until Ctrl-C, a Tunnels screen may run several.
/// The forwarder does not own the session: the caller disconnects it after `stop`.
public final class Forwarder: Sendable {
    public enum State: Sendable, Equatable {
        case starting
        case up
        /// It could not start, or its session was lost; the sentence says why.
        case failed(String)
        case stopped
    }

    /// What a screen shows of a running forwarder.
    public struct Figures: Sendable, Equatable {
        public var state: State
        /// Connections open now, and made since the start.
        public var openConnections: Int
        public var connections: Int
        /// Connections that could not be made (the server could not connect, a SOCKS handshake failed, …).
        public var failedConnections: Int
        /// Bytes from here to the server's side, and back.
        public var bytesOut: Int
        public var bytesIn: Int
    }

    /// How `run` ended.
    public enum Ending: Sendable {
        /// Stopped on request (Ctrl-C); that many connections were open.
        case stopped(openConnections: Int)
        /// The session died; every connection was closed.
        case lost(SSHError)
    }

    public let session: SSHSession
    public let forwards: [ForwardSpec]
    /// How messages name the server.
    public let name: String
    /// Seconds the server has to open each connection's channel.
    public let openTimeout: Double
    private let onEvent: @Sendable (ForwardEvent) -> Void
    private let events = DispatchQueue(label: "essh.forward.events")
    private let shared = Mutex(Shared())
    private let acceptor: AcceptLoop.Control

    private struct Shared {
        var state = State.starting
        var relay: ChannelRelay?
        var failedConnections = 0
        var listening: [ForwardEvent] = []
    }

    /// A forwarder for `forwards` over `session` (not started). `onEvent` hears each listening forward and each
    /// connection that failed, in order, on a queue of the forwarder's (never the relay's thread).
    public init(session: SSHSession, forwards: [ForwardSpec], name: String? = nil, openTimeout: Double = 10,
                onEvent: @escaping @Sendable (ForwardEvent) -> Void) throws(ForwardError) {
        self.session = session
        self.forwards = forwards
        self.name = name ?? session.host
        self.openTimeout = openTimeout
        self.onEvent = onEvent
        do throws(SelfPipe.Failure) {
            acceptor = try AcceptLoop.Control()
        } catch {
            throw ForwardError(.bind, error.message)
        }
    }

    deinit { stop() }

    public var state: State { shared.withLock { $0.state } }

    /// The live figures.
    public var figures: Figures {
        let (state, relay, failed) = shared.withLock { ($0.state, $0.relay, $0.failedConnections) }
        let totals = relay?.totals ?? ChannelRelay.Totals()
        return Figures(state: state, openConnections: totals.linksOpen, connections: totals.linksMade,
                       failedConnections: failed, bytesOut: totals.bytesOut, bytesIn: totals.bytesIn)
    }

    /// What each forward listens on, as its `.listening` events said (after `start`).
    public var listening: [ForwardEvent] { shared.withLock { $0.listening } }

    /// Sets every forward up — binds the local ports, asks the server for the remote ones — and starts serving
    /// them. All or nothing: the first forward that cannot be set up stops the others and is thrown (state
    /// `.failed`). Warns (an event) for each bind others can reach.
    public func start() throws(ForwardError) {
        for spec in forwards { if let warning = spec.exposureWarning { emit(.warning(warning)) } }
        do throws(ForwardError) {
            let relay: ChannelRelay
            do throws(SSHError) {
                relay = try ChannelRelay(session: session, name: name)
            } catch {
                throw ForwardError(.connection, error.message, detail: error.detail, ssh: error)
            }
            shared.withLock { $0.relay = relay }
            var listeners: [AcceptLoop.Listener] = []
            do throws(ForwardError) {
                for spec in forwards where spec.kind != .remote {
                    // Every loopback address for a bind left out (ssh's rule), each its own listener.
                    let bound = try TCPSocket.listen(on: spec.localBindHosts, port: spec.bindPort, for: spec)
                    listeners += bound.fds.map { AcceptLoop.Listener(fd: $0, spec: spec) }
                    announce(.listening(spec, address: ForwardSpec.addresses(bound.hosts, bound.port), through: name))
                }
                for spec in forwards where spec.kind == .remote {
                    let forward: RemoteForward
                    do throws(SSHError) {
                        forward = try relay.listen(address: spec.remoteBindHost, port: spec.bindPort,
                                                   timeout: max(openTimeout, 10)) { [weak self] connection in
                            self?.connectBack(connection, spec: spec)
                        }
                    } catch {
                        let kind: ForwardError.Kind = error.kind == .refused ? .remoteRefused : .connection
                        throw ForwardError(kind, "\(spec): \(error.situation)", detail: error.detail, ssh: error)
                    }
                    let host = forward.address.isEmpty ? "*" : forward.address
                    announce(.listening(spec, address: ForwardSpec.address(host, forward.port), through: name))
                }
            } catch {
                for listener in listeners { close(listener.fd) }
                throw error
            }
            let context = AcceptLoop.Context(relay: relay, openTimeout: openTimeout, control: acceptor,
                                             failed: { [weak self] spec, reason in self?.failed(spec, reason) })
            let bound = listeners
            guard PlainThread.start({ AcceptLoop(context: context, listeners: bound).run() }) else {
                for listener in listeners { close(listener.fd) }
                throw ForwardError(.bind, "Cannot start the thread that accepts the forwards' connections.")
            }
            shared.withLock { $0.state = .up }
        } catch {
            let relay = shared.withLock { shared -> ChannelRelay? in
                shared.state = .failed(error.message)
                defer { shared.relay = nil }
                return shared.relay
            }
            relay?.stop()
            throw error
        }
    }

    /// Waits until `cancel` fires (then stops) or the session is lost. Returns how it ended.
    public func run(until cancel: Cancellation) -> Ending {
        while true {
            var p = pollfd(fd: cancel.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 250)
            if cancel.isCancelled {
                let open = stop()
                return .stopped(openConnections: open)
            }
            guard let relay = shared.withLock({ $0.relay }) else { return .stopped(openConnections: 0) }
            if !relay.isRunning || relay.failure != nil {
                let error = relay.failure
                    ?? SSHError(.disconnected, "relay stopped", "The connection to \(name) is closed.")
                acceptor.stop()
                shared.withLock { $0.state = .failed(error.situation) }
                return .lost(error)
            }
        }
    }

    /// Stops accepting, closes every connection and the remote listeners, and lets go of the session (it stays
    /// connected). Returns how many connections were open, after every event before it was delivered (so do not
    /// call it from `onEvent`). Idempotent.
    @discardableResult
    public func stop() -> Int {
        acceptor.stop()
        let relay = shared.withLock { shared -> ChannelRelay? in
            if case .failed = shared.state {} else { shared.state = .stopped }
            return shared.relay
        }
        let open = relay?.openLinkCount ?? 0
        relay?.stop()
        events.sync {}
        return open
    }

    // MARK: - Connections

    /// A connection the server accepted on a remote forward: connect here (off the relay's thread) and join.
    private func connectBack(_ connection: ForwardedConnection, spec: ForwardSpec) {
        guard let host = spec.host, let port = spec.hostPort else {
            connection.refuse()
            return
        }
        let timeout = openTimeout
        DispatchQueue.global().async { [weak self] in
            switch TCPSocket.connect(host: host, port: port, timeout: timeout) {
            case .success(let fd):
                connection.adopt(descriptor: fd, host: host, port: port)
            case .failure(let error):
                connection.refuse()
                self?.failed(spec, "a connection came in on the server, but \(ForwardSpec.address(host, port)) "
                             + "could not be reached from here (\(error.message)).")
            }
        }
    }

    private func failed(_ spec: ForwardSpec, _ reason: String) {
        shared.withLock { $0.failedConnections += 1 }
        emit(.connectionFailed(spec, reason: reason))
    }

    private func announce(_ event: ForwardEvent) {
        shared.withLock { $0.listening.append(event) }
        emit(event)
    }

    private func emit(_ event: ForwardEvent) {
        let onEvent = onEvent
        events.async { onEvent(event) }
    }
}
