/// The one spelling of socket protocols and states across ss, Linux/BSD/Windows netstat (see `Socket`).
/// Pure string rules; README ("essh parse") lists them.
public enum SocketSpelling {
    /// Transports whose names tools suffix with the address family (`tcp6`, `udp4`, `tcp46`).
    static let transports: Set<String> = ["tcp", "udp", "raw", "sctp", "dccp", "mptcp", "udplite"]

    /// `tcp6` → `tcp`, `UDP` → `udp`; a name that is no known transport with a family suffix stays as printed
    /// (lowercased).
    public static func transport(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let lower = raw.lowercased()
        let (base, _) = split(lower)
        return base
    }

    /// `ipv4` / `ipv6` from the protocol's suffix, else from how the local address is written.
    public static func family(_ raw: String?, local: String) -> String? {
        if let raw {
            switch split(raw.lowercased()).suffix {
            case "4": return "ipv4"
            case "6", "46": return "ipv6"
            default: break
            }
        }
        if local.hasPrefix("[") { return "ipv6" }
        if let first = local.unicodeScalars.first, ("0"..."9").contains(first) {
            // `0.0.0.0:22`, `10.0.0.1:443` (IPv4); an IPv6 address always comes bracketed.
            return local.contains(".") ? "ipv4" : nil
        }
        return nil
    }

    /// The state in RFC 9293's names (upper case, underscores): ss's `ESTAB`, `TIME-WAIT`, `SYN-RECV`,
    /// `FIN-WAIT-1`, Linux netstat's `FIN_WAIT1`, `SYN_RECV`, `CLOSE`, BSD's `SYN_RCVD`, `CLOSED`, Windows'
    /// `LISTENING`, `SYN_RECEIVED`. ss's `UNCONN` is `CLOSED` on TCP and no state on UDP and raw sockets (netstat
    /// prints none there). Anything else is kept, in upper case with `-` as `_`.
    public static func state(_ raw: String?, transport: String?) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        let word = String(raw.uppercased().map { $0 == "-" ? "_" : $0 })
        switch word {
        case "ESTAB": return "ESTABLISHED"
        case "LISTENING": return "LISTEN"
        case "SYN_RECV", "SYN_RCVD": return "SYN_RECEIVED"
        case "FIN_WAIT1": return "FIN_WAIT_1"
        case "FIN_WAIT2": return "FIN_WAIT_2"
        case "CLOSE": return "CLOSED"
        case "UNCONN": return transport == "tcp" ? "CLOSED" : nil
        default: return word
        }
    }

    /// `tcp46` → (`tcp`, `46`); `tcp` → (`tcp`, ""); `icmp6` (no family suffix rule) → (`icmp6`, "").
    private static func split(_ lower: String) -> (base: String, suffix: Substring) {
        for suffix in ["46", "4", "6"] where lower.hasSuffix(suffix) {
            let base = String(lower.dropLast(suffix.count))
            if transports.contains(base) { return (base, lower.suffix(suffix.count)) }
        }
        return (lower, "")
    }
}
