/// Every layout eSSH can read; auto-detection names one of these in its result.
public enum InputFormat: String, Sendable, CaseIterable {
    /// Linux net-tools `ifconfig` before 2.10 (`Link encap:`, `inet addr:`).
    case ifconfigLinuxOld = "ifconfig (Linux net-tools, old layout)"
    /// Linux net-tools `ifconfig` 2.10 and later (`flags=…<UP,…>  mtu`).
    case ifconfigLinux = "ifconfig (Linux net-tools 2.10+)"
    /// FreeBSD and macOS `ifconfig`.
    case ifconfigBSD = "ifconfig (FreeBSD/macOS)"
    /// `ip addr` text.
    case ipAddr = "ip addr"
    /// `ip -o addr`, one address per line.
    case ipAddrOneLine = "ip -o addr"
    /// `ip -j addr` JSON.
    case ipAddrJSON = "ip -j addr"
    /// Windows `ipconfig` and `ipconfig /all`.
    case ipconfig = "ipconfig"
    /// Linux `route -n` (and `route` with names).
    case routeLinux = "route -n"
    /// Linux `route -6 -n`.
    case routeLinux6 = "route -6 -n"
    /// Linux `netstat -rn`.
    case netstatRoutesLinux = "netstat -rn (Linux)"
    /// `ip route` and `ip -6 route`.
    case ipRoute = "ip route"
    /// FreeBSD and macOS `netstat -rn`.
    case netstatRoutesBSD = "netstat -rn (FreeBSD/macOS)"
    /// Windows `route print`.
    case routePrint = "route print (Windows)"
    /// Linux `netstat -tuna` / `-tulpn`.
    case netstatLinux = "netstat -tuna (Linux)"
    /// `ss -tuna` / `-tulpn`.
    case ss = "ss"
    /// FreeBSD and macOS `netstat -an`.
    case netstatBSD = "netstat -an (FreeBSD/macOS)"
    /// Windows `netstat -an` / `-ano`.
    case netstatWindows = "netstat -an (Windows)"

    /// What the format lists.
    public var kind: DataKind {
        switch self {
        case .ifconfigLinuxOld, .ifconfigLinux, .ifconfigBSD, .ipAddr, .ipAddrOneLine, .ipAddrJSON, .ipconfig:
            return .interfaces
        case .routeLinux, .routeLinux6, .netstatRoutesLinux, .ipRoute, .netstatRoutesBSD, .routePrint:
            return .routes
        case .netstatLinux, .ss, .netstatBSD, .netstatWindows:
            return .sockets
        }
    }

    /// The command family a user names with `--format`.
    public var family: FormatFamily {
        switch self {
        case .ifconfigLinuxOld, .ifconfigLinux, .ifconfigBSD: return .ifconfig
        case .ipAddr, .ipAddrOneLine, .ipAddrJSON, .ipRoute: return .ip
        case .ipconfig: return .ipconfig
        case .routeLinux, .routeLinux6, .routePrint: return .route
        case .netstatRoutesLinux, .netstatRoutesBSD, .netstatLinux, .netstatBSD, .netstatWindows: return .netstat
        case .ss: return .ss
        }
    }

    /// The formats of one kind that belong to a family (`.auto`: all of that kind), in detection order.
    public static func candidates(kind: DataKind, family: FormatFamily) -> [InputFormat] {
        allCases.filter { $0.kind == kind && (family == .auto || $0.family == family) }
    }
}

/// What a parse produces: interfaces, routes or sockets.
public enum DataKind: String, Sendable, CaseIterable {
    /// Network interfaces and their addresses.
    case interfaces
    /// Routing-table entries.
    case routes
    /// Internet sockets.
    case sockets
}

/// The command family named by `--format` (`auto` detects it).
public enum FormatFamily: String, Sendable, CaseIterable {
    /// Detect the layout from the text.
    case auto
    /// Any `ifconfig` layout.
    case ifconfig
    /// `ip addr` (text, `-o`, `-j`) or `ip route`.
    case ip
    /// Windows `ipconfig`.
    case ipconfig
    /// `route -n`, `route -6 -n` or Windows `route print`.
    case route
    /// Any `netstat` layout (routes or sockets).
    case netstat
    /// `ss`.
    case ss
}
