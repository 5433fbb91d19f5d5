/// One network interface as eSSH reports it, whatever command printed it.
/// Fields the input did not give stay nil (JSON null): nothing is guessed.
public struct Interface: Sendable, Equatable, Decodable {
    /// The interface name (`eth0`, `en0`, `Ethernet 2`), without an `@parent` suffix.
    public var name: String
    /// Administrative state: up when the UP flag (or a connected adapter) was shown, down when not, nil if unknown.
    public var state: LinkState?
    /// The MTU in bytes, when the input gave it.
    public var mtu: Int?
    /// The hardware address, lowercase and colon-separated.
    public var mac: String?
    /// IPv4 addresses in input order.
    public var ipv4: [IPv4Address]
    /// IPv6 addresses in input order, without `%zone`.
    public var ipv6: [IPv6Address]
    /// Bytes received, when the input gave counters.
    public var rxBytes: Int?
    /// Bytes sent, when the input gave counters.
    public var txBytes: Int?

    /// An interface with the given fields (all but the name optional).
    public init(name: String, state: LinkState? = nil, mtu: Int? = nil, mac: String? = nil,
                ipv4: [IPv4Address] = [], ipv6: [IPv6Address] = [], rxBytes: Int? = nil, txBytes: Int? = nil) {
        self.name = name
        self.state = state
        self.mtu = mtu
        self.mac = mac
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.rxBytes = rxBytes
        self.txBytes = txBytes
    }

    enum CodingKeys: String, CodingKey {
        case name, state, mtu, mac, ipv4, ipv6
        case rxBytes = "rx_bytes"
        case txBytes = "tx_bytes"
    }
}

/// Whether an interface is administratively up.
public enum LinkState: String, Sendable, Equatable, Decodable {
    /// The interface is up.
    case up
    /// The interface is down.
    case down
}
