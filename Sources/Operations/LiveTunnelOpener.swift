import Basics
import Forwarding
import Inventory
import SSH
import Synchronization

/// Opens saved tunnels for real: the session options (`savedServers`: the server's `ConnectionProfile`, its jump
/// hosts too, host-key policy `strict`), no one to ask for a password (a tunnel runs in the background), a session,
/// then a `Forwarder` with the one forward over it.
public struct LiveTunnelOpener: Sendable {
    /// The session options of a tunnel's server (its jump hosts expanded).
    public typealias Options = @Sendable (TunnelID) throws(TunnelFailure) -> ConnectOptions

    public var options: Options
    /// Seconds between keepalives; three unanswered drop the session (and the tunnel reconnects).
    public var keepalive: Int
    /// Seconds the server has to open each forwarded connection.
    public var openTimeout: Double

    public init(options: @escaping Options, keepalive: Int = 15, openTimeout: Double = 10) {
        self.options = options
        self.keepalive = keepalive
        self.openTimeout = openTimeout
    }

    /// The options of the saved server the tunnel names, read when each attempt starts (so an edit counts), through
    /// its `ConnectionProfile`: jump hosts that name saved servers are looked up with `savedServer` too.
    public static func savedServers(context: ConnectionProfile.Context,
                                    savedServer: @escaping @Sendable (String) throws -> Server?) -> Options {
        { id throws(TunnelFailure) in
            let server: Server?
            do { server = try savedServer(id.server) } catch {
                throw TunnelFailure(UserFacing.sentence(error), retry: true)
            }
            guard let server else {
                throw TunnelFailure("no saved server is named \(id.server) any more.", retry: false)
            }
            var context = context
            if context.savedServer == nil { context.savedServer = savedServer }
            do throws(ConnectionProblem) {
                var options = try ConnectionProfile(server: server).options(context: context)
                // Nobody is asked in the background: an unknown key is refused, with what to do.
                options.setHostKeyPolicy(.strict)
                return options
            } catch {
                throw TunnelFailure(error.message, retry: false)
            }
        }
    }

    /// The opener as the supervisor takes it.
    public var opener: TunnelOpener {
        { id, spec, cancel throws(TunnelFailure) in try open(id, spec: spec, cancel: cancel) }
    }

    public func open(_ id: TunnelID, spec: ForwardSpec, cancel: Cancellation) throws(TunnelFailure)
        -> any TunnelLink
    {
        var options = try self.options(id)
        options.setKeepalive(keepalive)
        let session: SSHSession
        do throws(SSHError) {
            session = try SSHSession.connect(options, prompter: NonInteractivePrompter(), cancel: cancel)
        } catch {
            let hint = error.kind == .hostKeyUnknown
                ? " Connect to \(id.server) once to confirm its key: a tunnel asks no questions." : ""
            throw TunnelFailure(error.situation + hint, retry: Self.worthRetrying(error))
        }
        let forwarder: Forwarder
        do throws(ForwardError) {
            forwarder = try Forwarder(session: session, forwards: [spec], name: id.server, openTimeout: openTimeout,
                                      onEvent: { _ in })
            try forwarder.start()
        } catch {
            session.disconnect()
            throw TunnelFailure(error.message, retry: error.kind == .connection)
        }
        let address = forwarder.listening.compactMap { event -> String? in
            if case .listening(_, let address, _) = event { return address } else { return nil }
        }.first
        return LiveTunnelLink(forwarder: forwarder, session: session, listening: address)
    }

    /// Whether an error connecting may go away by itself (the server restarting, the network); a refused host key,
    /// a failed login or a bad key file will not.
    static func worthRetrying(_ error: SSHError) -> Bool {
        switch error.kind {
        case .nameNotFound, .refused, .timedOut, .unreachable, .disconnected, .protocolError, .io, .library,
             .commandTimedOut, .cancelled:
            return true
        case .notSSH, .hostKeyUnknown, .hostKeyChanged, .hostKeyRevoked, .hostKeyRejected, .authenticationFailed,
             .keyFile, .noCommonAlgorithm, .knownHostsFile, .remoteFile:
            return false
        }
    }
}

/// A forwarder and the session it owns.
final class LiveTunnelLink: TunnelLink {
    let forwarder: Forwarder
    let session: SSHSession
    let listening: String?
    private let closed = Mutex(false)

    init(forwarder: Forwarder, session: SSHSession, listening: String?) {
        self.forwarder = forwarder
        self.session = session
        self.listening = listening
    }

    var figures: TunnelFigures {
        let f = forwarder.figures
        return TunnelFigures(openConnections: f.openConnections, connections: f.connections, bytesOut: f.bytesOut,
                             bytesIn: f.bytesIn)
    }

    func run(until cancel: Cancellation) -> Forwarder.Ending { forwarder.run(until: cancel) }

    @discardableResult
    func close() -> Int {
        let first = closed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return 0 }
        let open = forwarder.stop()
        session.disconnect()
        return open
    }
}
