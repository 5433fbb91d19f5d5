import SSH

/// What a running forwarder tells its owner, in order, off the relay's thread: each forward when it listens, each
/// connection that could not be made (the tunnel stays up), warnings.
public enum ForwardEvent: Sendable, Equatable {
    /// `spec` listens: here on `address` (-L, -D), or on the server (-R, `address` as the server reported it).
    case listening(ForwardSpec, address: String, through: String)
    /// One connection of `spec` failed; `reason` is a sentence.
    case connectionFailed(ForwardSpec, reason: String)
    /// Something the person should know (a bind others can reach).
    case warning(String)

    /// The event as one line of text.
    public var line: String {
        switch self {
        case .listening(let spec, let address, let server):
            switch spec.kind {
            case .local:
                return "\(spec): listening on \(address), forwarding to \(spec.target ?? "") through \(server)"
            case .dynamic:
                return "\(spec): SOCKS proxy (SOCKS5, SOCKS4a) on \(address), connecting through \(server)"
            case .remote:
                return "\(spec): \(server) listens on \(address), forwarding to \(spec.target ?? "") from here"
            }
        case .connectionFailed(let spec, let reason):
            return "\(spec): \(reason)"
        case .warning(let text):
            return text
        }
    }

    /// A failed channel open as one connection's sentence: "the server could not connect to db:5432 (connection
    /// refused); the tunnel stays up.". The reason comes from `ChannelOpenFailure`, the one reader of libssh2's
    /// channel-open messages.
    static func openFailure(_ error: SSHError, target: String) -> String {
        switch ChannelOpenFailure.reason(of: error) {
        case .connectFailed(let description)?:
            let why = description.map { $0.lowercased() } ?? "connect failed"
            return "the server could not connect to \(target) (\(why)); the tunnel stays up."
        case .administrativelyProhibited?:
            return "the server may not open connections to \(target) (administratively prohibited: its sshd's "
                + "AllowTcpForwarding or PermitOpen forbids it)."
        case .resourceShortage?:
            return "the server refused another connection to \(target) (resource shortage: too many at once)."
        case .unknownChannelType?:
            return "the server does not forward connections at all (unknown channel type)."
        case nil:
            if error.kind == .timedOut {
                return "the server did not get a connection to \(target) in time (no answer from it)."
            }
            return "no connection to \(target): \(error.situation)"
        }
    }

    /// The SOCKS reply for a failed open (RFC 1928 §6).
    static func socksReply(_ error: SSHError) -> SOCKSHandshake.Reply {
        switch ChannelOpenFailure.reason(of: error) {
        case .connectFailed(let description)?:
            switch description?.lowercased() {
            case "connection timed out"?: return .hostUnreachable
            case "no route to host"?: return .hostUnreachable
            case "network is unreachable"?: return .networkUnreachable
            default: return .connectionRefused
            }
        case .administrativelyProhibited?: return .notAllowed
        default: return error.kind == .timedOut ? .hostUnreachable : .generalFailure
        }
    }
}
