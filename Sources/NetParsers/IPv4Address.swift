/// An IPv4 address on an interface with its prefix length (from a CIDR suffix, a dotted or a hex mask).
public struct IPv4Address: Sendable, Equatable, Decodable {
    /// The dotted address, e.g. `192.168.1.10`.
    public var address: String
    /// The prefix length (0-32), nil when the input gave no mask.
    public var prefix: Int?

    /// An address with its prefix length.
    public init(address: String, prefix: Int?) {
        self.address = address
        self.prefix = prefix
    }
}
