/// Reads `ip route` and `ip -6 route`: `[TYPE] DEST [via GW] [dev IF] [proto P] [scope S] [src A] [metric N] …`,
/// with multipath `nexthop` lines under their destination (which inherit its proto, scope and src).
struct IPRouteParser {
    let text: ByteText

    private static let routeTypes: [StaticString] = [
        "unicast", "local", "broadcast", "multicast", "unreachable", "prohibit", "blackhole", "throw", "anycast", "nat",
    ]
    private static let flagWords: [StaticString] = ["linkdown", "onlink", "dead", "pervasive", "offload", "trap"]
    /// Keys followed by one value that is not itself a route field.
    private static let valueKeys: [StaticString] = [
        "table", "expires", "pref", "mtu", "advmss", "weight", "realm", "realms", "nhid",
        "hoplimit", "initcwnd", "initrwnd", "rto_min", "error", "tos", "dsfield", "quickack", "features", "congctl",
    ]

    func parse() -> ParseResult<Route> {
        var items: [Route] = []
        var warnings: [String] = []
        var lineNumber = 0
        // A route with neither `via` nor `dev` heads a multipath block; its `nexthop` lines become the routes,
        // and it is kept as it is only when no nexthop follows.
        var head: Route?
        var headUsed = false
        func flushHead() {
            if let h = head, !headUsed { items.append(h) }
            head = nil
        }
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty { return true }
            let t = text.tokens(trimmed, max: Tokens.capacity)
            if text.equals(t[0], "nexthop") {
                guard let h = head else {
                    warnings.append("line \(lineNumber): nexthop without a route above it, skipped")
                    return true
                }
                var route = fields(t, from: 1)
                route.destination = h.destination
                route.metric = route.metric ?? h.metric
                route.src = route.src ?? h.src
                route.proto = route.proto ?? h.proto
                route.scope = route.scope ?? h.scope
                items.append(route)
                headUsed = true
                return true
            }
            flushHead()
            var k = 0
            var type: String?
            if Self.routeTypes.contains(where: { text.equals(t[0], $0) }) {
                if !text.equals(t[0], "unicast") { type = text.string(t[0]) }
                k = 1
            }
            guard k < t.count, let destination = destination(t[k]) else {
                warnings.append("line \(lineNumber): not an ip route line, skipped")
                return true
            }
            var route = fields(t, from: k + 1)
            let isV6 = text.firstIndex(of: UInt8(ascii: ":"), in: t[k]) != nil
                || (route.gateway?.contains(":") ?? false)
            if destination == "default" {
                route.destination = isV6 ? "::/0" : "0.0.0.0/0"
            } else {
                route.destination = destination.contains("/") ? destination : destination + (isV6 ? "/128" : "/32")
            }
            if let type { route.flags = route.flags.map { type + "," + $0 } ?? type }
            if route.gateway == nil && route.interface == nil && type == nil {
                head = route
                headUsed = false
            } else {
                items.append(route)
            }
            return true
        }
        flushHead()
        return ParseResult(items: items, format: .ipRoute, warnings: warnings)
    }

    /// `default` or something address-like (`10.0.0.0/8`, `fe80::/64`, `100.64.0.2`).
    private func destination(_ r: Range<Int>) -> String? {
        if text.equals(r, "default") { return "default" }
        let (addr, _) = text.splitCIDR(r)
        guard text.isIPv4(addr) || text.isIPv6(addr) || text.equals(addr, "::") else { return nil }
        return text.string(r)
    }

    private func fields(_ t: Tokens, from start: Int) -> Route {
        var route = Route(destination: "", gateway: nil, interface: nil, metric: nil, flags: nil)
        var flags: [String] = []
        var k = start
        while k < t.count {
            let key = t[k]
            let hasValue = k + 1 < t.count
            if text.equals(key, "via") && hasValue {
                // `via inet6 fe80::1` names the family first.
                var v = k + 1
                if (text.equals(t[v], "inet") || text.equals(t[v], "inet6")) && v + 1 < t.count { v += 1 }
                route.gateway = text.string(t[v])
                k = v + 1
            } else if text.equals(key, "dev") && hasValue {
                route.interface = text.string(t[k + 1])
                k += 2
            } else if text.equals(key, "metric") && hasValue {
                route.metric = text.int(t[k + 1])
                k += 2
            } else if text.equals(key, "src") && hasValue {
                route.src = text.string(t[k + 1])
                k += 2
            } else if text.equals(key, "proto") && hasValue {
                route.proto = text.string(t[k + 1])
                k += 2
            } else if text.equals(key, "scope") && hasValue {
                route.scope = text.string(t[k + 1])
                k += 2
            } else if Self.flagWords.contains(where: { text.equals(key, $0) }) {
                flags.append(text.string(key))
                k += 1
            } else if Self.valueKeys.contains(where: { text.equals(key, $0) }) && hasValue {
                k += 2
            } else {
                k += 1
            }
        }
        route.flags = flags.isEmpty ? nil : flags.joined(separator: ",")
        return route
    }
}
