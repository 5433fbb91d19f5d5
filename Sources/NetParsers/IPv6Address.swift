/// An IPv6 address on an interface, its prefix length and scope as the input named it.
public struct IPv6Address: Sendable, Equatable, Decodable {
    /// The address without its `%zone` suffix.
    public var address: String
    /// The prefix length (0-128), nil when the input gave none.
    public var prefix: Int?
    /// The scope as printed (`link`, `global`, `host`, `site`), nil when the input gave none.
    public var scope: String?

    /// An address with its prefix length and scope.
    public init(address: String, prefix: Int?, scope: String?) {
        self.address = address
        self.prefix = prefix
        self.scope = scope
    }
}
