/// An IPv4 address on an interface with its prefix length (from a CIDR suffix, a dotted or a hex mask), and the
/// broadcast address and scope when the input printed them.
public struct IPv4Address: Sendable, Equatable, Decodable {
    /// The dotted address, e.g. `192.168.1.10`.
    public var address: String
    /// The prefix length (0-32), nil when the input gave no mask.
    public var prefix: Int?
    /// The broadcast address as printed (`brd` in ip addr, `broadcast`/`Bcast` in ifconfig), nil when none was shown.
    public var broadcast: String?
    /// The scope as printed (`global`, `host`, `link`; ip addr only), nil when the input gave none.
    public var scope: String?

    /// An address with its prefix length, broadcast address and scope.
    public init(address: String, prefix: Int?, broadcast: String? = nil, scope: String? = nil) {
        self.address = address
        self.prefix = prefix
        self.broadcast = broadcast
        self.scope = scope
    }
}
