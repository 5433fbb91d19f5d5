/// One Internet socket (TCP, UDP, raw) from netstat or ss. Unix-domain and netlink sockets are not listed.
public struct Socket: Sendable, Equatable, Decodable {
    /// The protocol in lowercase as printed (`tcp`, `tcp6`, `udp4`, `tcp46`); nil when the input had no column
    /// for it (`ss -t` without `Netid`).
    public var proto: String?
    /// The local endpoint as `address:port`, IPv6 addresses in brackets (`[::1]:22`, `*:22`).
    public var local: String
    /// The remote endpoint as `address:port`, nil when the input left it empty.
    public var remote: String?
    /// The state as printed (`LISTEN`, `ESTAB`, `ESTABLISHED`, `LISTENING`), nil when none was shown (UDP).
    public var state: String?
    /// The owning process id, when the input gave it (`-p`, `-o`).
    public var pid: Int?
    /// The owning program's name, when the input gave it.
    public var program: String?

    /// A socket with the given fields.
    public init(proto: String?, local: String, remote: String?, state: String?, pid: Int?, program: String?) {
        self.proto = proto
        self.local = local
        self.remote = remote
        self.state = state
        self.pid = pid
        self.program = program
    }
}
