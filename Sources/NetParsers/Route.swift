/// One routing-table entry.
public struct Route: Sendable, Equatable, Decodable {
    /// The destination in CIDR notation (`0.0.0.0/0` and `::/0` for default routes).
    public var destination: String
    /// The next hop, nil when the route is direct (on-link).
    public var gateway: String?
    /// The interface name (or, for Windows IPv4 routes, the interface's address as `route print` shows it).
    public var interface: String?
    /// The metric, when the input gave one.
    public var metric: Int?
    /// The flags as printed (`UG`, `UHS`), nil when the format has none.
    public var flags: String?
    /// The preferred source address (`src` in ip route), nil when the input gave none.
    public var src: String?
    /// Who installed the route (`proto kernel`, `dhcp`, `static` in ip route), nil when the input gave none.
    public var proto: String?
    /// The route's scope (`link`, `host`, `global` in ip route), nil when the input gave none.
    public var scope: String?

    /// A route with the given fields.
    public init(destination: String, gateway: String?, interface: String?, metric: Int?, flags: String?,
                src: String? = nil, proto: String? = nil, scope: String? = nil) {
        self.destination = destination
        self.gateway = gateway
        self.interface = interface
        self.metric = metric
        self.flags = flags
        self.src = src
        self.proto = proto
        self.scope = scope
    }
}
