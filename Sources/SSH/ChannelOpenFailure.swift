import Basics

/// Why a relayed server did not open a `direct-tcpip` channel, as a sentence naming it and the target. libssh2 keeps
/// the reason code in its message: "Channel open failure (administratively prohibited)", "(connect failed)",
/// "(unknown channel type)", "(resource shortage)"; eSSH's patch 0002 adds the server's description of a failed
/// connect ("(connect failed: Connection refused)"), which says what the relayed server saw.
public enum ChannelOpenFailure {
    /// The reason of a channel-open failure, read back from the error `error(relay:target:libssh2Message:)` made
    /// (its `detail`): for callers that tell a refused target from a forbidding bastion (online checks).
    public enum Reason: Sendable, Equatable {
        /// The relayed server tried and its connect failed; `description` is what it said ("Connection refused"),
        /// nil when the library dropped it.
        case connectFailed(description: String?)
        /// The relayed server may not open such connections (AllowTcpForwarding, PermitOpen).
        case administrativelyProhibited
        /// The relayed server refused more channels on this session.
        case resourceShortage
        /// The relayed server does not forward at all.
        case unknownChannelType
    }

    /// The reason `error` was made for, nil when it is no channel-open failure.
    public static func reason(of error: SSHError) -> Reason? {
        guard error.detail.hasPrefix("Channel open failure (") else { return nil }
        let (reason, description) = parts(error.detail)
        switch reason {
        case "administratively prohibited": return .administrativelyProhibited
        case "connect failed": return .connectFailed(description: description)
        case "resource shortage": return .resourceShortage
        case "unknown channel type": return .unknownChannelType
        default: return nil
        }
    }

    /// The reason code's words and the server's description, from libssh2's message.
    private static func parts(_ message: String) -> (reason: String, description: String?) {
        let inside = message.range(of: "(").map { String(message[$0.upperBound...].prefix { $0 != ")" }) } ?? ""
        guard let colon = inside.range(of: ": ") else { return (inside, nil) }
        let description = String(inside[colon.upperBound...])
        return (String(inside[..<colon.lowerBound]), description.isEmpty ? nil : description)
    }

    /// The error for a channel-open failure that libssh2 reported with `message` (`LIBSSH2_ERROR_CHANNEL_FAILURE`).
    /// `relay` names the server that was asked ("bastion"), `target` what it was asked to reach ("10.1.2.3:22").
    static func error(relay: String, target: String, libssh2Message message: String) -> SSHError {
        let (reason, description) = parts(message)
        switch reason {
        case "administratively prohibited":
            return SSHError(.refused, message, """
                \(relay) accepted, but it may not open a connection to \(target) (administratively prohibited): its \
                sshd forbids forwarding there (AllowTcpForwarding, PermitOpen, or a restricted key).
                """)
        case "connect failed":
            return connectFailed(relay: relay, target: target, description: description, message: message)
        case "resource shortage":
            return SSHError(.refused, message, """
                \(relay) accepted, but refused to open more connections (resource shortage): it limits the \
                connections one session may carry.
                """)
        case "unknown channel type":
            return SSHError(.protocolError, message, """
                \(relay) accepted, but does not forward connections at all (unknown channel type): it is not a \
                usual SSH server, or forwarding is compiled out.
                """)
        default:
            return SSHError(.protocolError, message, "\(relay) could not open a connection to \(target) (\(message)).")
        }
    }

    /// A connect the relayed server tried and that failed, by what it said: refused (nothing listens), timed out,
    /// or otherwise not reached; without its description (a library without patch 0002), as before: unreachable.
    private static func connectFailed(relay: String, target: String, description: String?,
                                      message: String) -> SSHError {
        switch description.map({ $0.lowercased() }) {
        case "connection refused"?:
            return SSHError(.refused, message, """
                \(relay) accepted, but \(target) refused the connection (seen from \(relay)): nothing listens there.
                """)
        case "connection timed out"?:
            return SSHError(.timedOut, message, """
                \(relay) accepted, but its connection to \(target) timed out (seen from \(relay)): the target is down \
                or a firewall drops the traffic.
                """)
        case _?:
            return SSHError(.unreachable, message, """
                \(relay) accepted, but could not connect to \(target) (connect failed: \(description ?? "")).
                """)
        case nil:
            return SSHError(.unreachable, message, """
                \(relay) accepted, but could not connect to \(target) (connect failed): nothing listens there, or \
                \(relay) cannot reach it.
                """)
        }
    }

    /// The error for an open that did not complete within `timeout` seconds.
    static func timedOut(relay: String, target: String, timeout: Double) -> SSHError {
        SSHError(.timedOut, "channel open timed out", """
            \(relay) did not get a connection to \(target) within \(DurationText.text(timeout, .number)) s: the \
            target is down, a firewall drops the traffic, or \(relay) is slow.
            """)
    }

    /// `host:port` as a target is written in messages (`[::1]:22` for IPv6 addresses).
    static func target(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
