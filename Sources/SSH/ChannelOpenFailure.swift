import Basics

/// Why a relayed server did not open a `direct-tcpip` channel, as a sentence naming it and the target. libssh2 drops
/// the server's own description and keeps only the reason code, in its message: "Channel open failure
/// (administratively prohibited)", "(connect failed)", "(unknown channel type)", "(resource shortage)".
enum ChannelOpenFailure {
    /// The error for a channel-open failure that libssh2 reported with `message` (`LIBSSH2_ERROR_CHANNEL_FAILURE`).
    /// `relay` names the server that was asked ("bastion"), `target` what it was asked to reach ("10.1.2.3:22").
    static func error(relay: String, target: String, libssh2Message message: String) -> SSHError {
        let reason = message.range(of: "(").map { String(message[$0.upperBound...].prefix { $0 != ")" }) } ?? ""
        switch reason {
        case "administratively prohibited":
            return SSHError(.refused, message, """
                \(relay) accepted, but it may not open a connection to \(target) (administratively prohibited): its \
                sshd forbids forwarding there (AllowTcpForwarding, PermitOpen, or a restricted key).
                """)
        case "connect failed":
            return SSHError(.unreachable, message, """
                \(relay) accepted, but could not connect to \(target) (connect failed): nothing listens there, or \
                \(relay) cannot reach it.
                """)
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
