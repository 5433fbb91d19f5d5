/// One port forward as OpenSSH writes it: `-L [bind:]port:host:hostport`, `-R [bind:]port:host:hostport`,
/// `-D [bind:]port`. IPv6 addresses go in brackets (`[::1]:8080:[fd00::5]:80`). A bind left out is loopback (both
/// families); an empty bind or `*` is every address. Parsing does no I/O (names are resolved when the forward starts).
public struct ForwardSpec: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// A local port; each connection to it becomes a channel to host:hostport, opened by the server.
        case local = "L"
        /// A port the server listens on; each connection there comes back to host:hostport, opened here.
        case remote = "R"
        /// A local SOCKS proxy; each client names its own target.
        case dynamic = "D"
    }

    public let kind: Kind
    /// The bind address as written, brackets removed: nil when left out, "" for `*` or an empty field.
    public let bindAddress: String?
    /// The port to listen on (0: let the system, or the server for -R, pick one).
    public let bindPort: Int
    /// Where connections go (nil for -D).
    public let host: String?
    public let hostPort: Int?

    public init(kind: Kind, bindAddress: String? = nil, bindPort: Int, host: String? = nil, hostPort: Int? = nil) {
        self.kind = kind
        self.bindAddress = bindAddress
        self.bindPort = bindPort
        self.host = host
        self.hostPort = hostPort
    }

    /// The forward as an option again: `-L 8080:db:5432`, `-D [::1]:1080`.
    public var description: String {
        var fields: [String] = []
        if let bindAddress { fields.append(bindAddress.isEmpty ? "*" : Self.bracketed(bindAddress)) }
        fields.append(String(bindPort))
        if let host, let hostPort { fields += [Self.bracketed(host), String(hostPort)] }
        return "-\(kind.rawValue) " + fields.joined(separator: ":")
    }

    /// `host:port` of the target as messages write it (nil for -D).
    public var target: String? {
        guard let host, let hostPort else { return nil }
        return Self.address(host, hostPort)
    }

    /// Whether only this machine (-L, -D) or the server itself (-R) can connect: no bind address, `localhost`, or
    /// a loopback address.
    public var isLoopback: Bool {
        guard let bind = bindAddress else { return true }
        let lowered = bind.lowercased()
        return lowered == "localhost" || lowered == "::1" || lowered.hasPrefix("127.")
    }

    /// The addresses to bind here (-L, -D), as ssh binds them: a bind left out or `localhost` is every loopback
    /// address (127.0.0.1 and ::1, so a client trying `localhost`'s IPv6 address first finds the forward), `*` or
    /// empty every address of both families; another is the one named. The first must bind; the others wherever
    /// this machine has their family (`TCPSocket.listen`).
    public var localBindHosts: [String] {
        guard let bind = bindAddress, bind.lowercased() != "localhost" else { return ["127.0.0.1", "::1"] }
        return bind.isEmpty ? ["0.0.0.0", "::"] : [bind]
    }

    /// The address the server is asked to listen on (-R), as ssh asks: "localhost" unless one was named, "" for
    /// every address (sshd's GatewayPorts decides whether it may).
    public var remoteBindHost: String { bindAddress ?? "localhost" }

    /// A line to warn with when others can reach the forward (a bind address that is not loopback), else nil.
    public var exposureWarning: String? {
        guard !isLoopback, let bind = bindAddress else { return nil }
        let spot = Self.address(bind.isEmpty ? "*" : bind, bindPort)
        switch kind {
        case .local:
            return "warning: \(self) listens on \(spot): other machines that reach this address can use the tunnel."
        case .dynamic:
            return "warning: \(self) listens on \(spot): other machines that reach this address can use the proxy "
                + "to reach anything the server reaches."
        case .remote:
            return "warning: \(self) asks the server to listen on \(spot): other machines that reach the server "
                + "there can connect to \(target ?? "the target") (if its sshd allows it: GatewayPorts)."
        }
    }

    /// `host:port`, with brackets around an IPv6 address.
    public static func address(_ host: String, _ port: Int) -> String { "\(bracketed(host)):\(port)" }

    /// Several addresses at one port, as the listening line names them: `127.0.0.1:8080 and [::1]:8080`.
    public static func addresses(_ hosts: [String], _ port: Int) -> String {
        hosts.map { address($0, port) }.joined(separator: " and ")
    }

    static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
