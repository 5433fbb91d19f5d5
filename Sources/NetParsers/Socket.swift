/// One Internet socket (TCP, UDP, raw) from netstat or ss. Unix-domain and netlink sockets are not listed.
///
/// Each tool spells protocols and states its own way (`tcp6` and `tcp` with `[::]`, `TIME-WAIT` and `TIME_WAIT`,
/// `ESTAB` and `ESTABLISHED`, `LISTENING` and `LISTEN`). A socket keeps what the input printed (`protoRaw`,
/// `stateRaw`) and gives one spelling for every tool (`proto`, `family`, `state`; `SocketSpelling` holds the rule),
/// so a filter or a script written against one tool's output works on another's.
public struct Socket: Sendable, Equatable, Decodable {
    /// The protocol in lowercase as printed (`tcp`, `tcp6`, `udp4`, `tcp46`); nil when the input had no column
    /// for it (`ss -t` without `Netid`).
    public var protoRaw: String?
    /// The local endpoint as `address:port`, IPv6 addresses in brackets (`[::1]:22`, `*:22`).
    public var local: String
    /// The remote endpoint as `address:port`, nil when the input left it empty.
    public var remote: String?
    /// The state as printed (`LISTEN`, `ESTAB`, `TIME-WAIT`, `LISTENING`, `UNCONN`), nil when none was shown (UDP).
    public var stateRaw: String?
    /// The owning process id, when the input gave it (`-p`, `-o`).
    public var pid: Int?
    /// The owning program's name, when the input gave it.
    public var program: String?

    /// A socket with the given fields, the protocol and state as the input printed them.
    public init(proto: String?, local: String, remote: String?, state: String?, pid: Int?, program: String?) {
        self.protoRaw = proto
        self.local = local
        self.remote = remote
        self.stateRaw = state
        self.pid = pid
        self.program = program
    }

    /// The transport protocol, one spelling for every tool: `tcp`, `udp`, `raw`, `sctp` (`tcp6`, `tcp4`, `tcp46`
    /// and `TCP` are all `tcp`; the address family is in `family`).
    public var proto: String? { SocketSpelling.transport(protoRaw) }

    /// `ipv4` or `ipv6`, from the protocol's suffix (`tcp6`, `udp4`; BSD's dual-stack `tcp46` is an IPv6 socket) or
    /// else from the local address (`[::]:22`, `0.0.0.0:22`); nil when neither tells (`*:22`).
    public var family: String? { SocketSpelling.family(protoRaw, local: local) }

    /// The TCP state, one spelling for every tool: RFC 9293's names in upper case with underscores (`LISTEN`,
    /// `ESTABLISHED`, `TIME_WAIT`, `FIN_WAIT_1`, `SYN_RECEIVED`, `CLOSED`); nil for a socket without one (ss's
    /// `UNCONN` on UDP, which netstat leaves blank).
    public var state: String? { SocketSpelling.state(stateRaw, transport: proto) }

    enum CodingKeys: String, CodingKey {
        case protoRaw = "proto_raw", local, remote, stateRaw = "state_raw", pid, program
    }
}
