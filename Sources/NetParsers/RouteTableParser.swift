/// Reads the Linux kernel tables printed by `route -n`, `route -6 -n` and `netstat -rn`: a title line, a column
/// header, then one row per route. Columns are found by name, so the three layouts share one reader.
struct RouteTableParser {
    let text: ByteText

    private struct Columns {
        var destination = -1, gateway = -1, genmask = -1, flags = -1, metric = -1, iface = -1, count = 0
        var hasMSS = false
    }

    func parse() -> ParseResult<Route> {
        var items: [Route] = []
        var warnings: [String] = []
        var columns: Columns?
        var ipv6 = false
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty { return true }
            if text.hasPrefix(trimmed, "Kernel IPv6 routing table") { ipv6 = true; return true }
            if text.hasPrefix(trimmed, "Kernel IP routing table") { ipv6 = false; return true }
            if text.hasPrefix(trimmed, "Destination") {
                columns = readHeader(trimmed)
                return true
            }
            guard let c = columns else {
                warnings.append("line \(lineNumber): route row before the column header, skipped")
                return true
            }
            let t = text.tokens(trimmed)
            guard t.count == c.count, c.destination >= 0 else {
                warnings.append("line \(lineNumber): expected \(c.count) columns, skipped")
                return true
            }
            items.append(route(t, c, ipv6: ipv6))
            return true
        }
        let format: InputFormat
        if let c = columns, c.hasMSS { format = .netstatRoutesLinux } else { format = ipv6 ? .routeLinux6 : .routeLinux }
        return ParseResult(items: items, format: format, warnings: warnings)
    }

    private func readHeader(_ line: Range<Int>) -> Columns {
        var c = Columns()
        var i = line.lowerBound
        var index = 0
        while let tok = text.nextToken(&i, line.upperBound) {
            if text.equals(tok, "Destination") { c.destination = index }
            else if text.equals(tok, "Gateway") { c.gateway = index }
            else if text.equals(tok, "Next") {
                // `Next Hop` is one column in two words.
                c.gateway = index
                var j = i
                if let hop = text.nextToken(&j, line.upperBound), text.equals(hop, "Hop") { i = j }
            }
            else if text.equals(tok, "Genmask") { c.genmask = index }
            else if text.equals(tok, "Flags") || text.equals(tok, "Flag") { c.flags = index }
            else if text.equals(tok, "Metric") || text.equals(tok, "Met") { c.metric = index }
            else if text.equals(tok, "Iface") || text.equals(tok, "If") { c.iface = index }
            else if text.equals(tok, "MSS") { c.hasMSS = true }
            index += 1
        }
        c.count = index
        return c
    }

    private func route(_ t: Tokens, _ c: Columns, ipv6: Bool) -> Route {
        let dest = t[c.destination]
        var destination: String
        if ipv6 || text.firstIndex(of: UInt8(ascii: ":"), in: dest) != nil {
            destination = text.string(dest)
            if text.firstIndex(of: UInt8(ascii: "/"), in: dest) == nil { destination += "/128" }
        } else {
            let prefix = c.genmask >= 0 ? text.prefix(fromMask: t[c.genmask]) : nil
            let address = text.equals(dest, "default") ? "0.0.0.0" : text.string(dest)
            destination = prefix.map { "\(address)/\($0)" } ?? address
        }
        var gateway: String?
        if c.gateway >= 0 {
            let g = t[c.gateway]
            if !(text.equals(g, "0.0.0.0") || text.equals(g, "*") || text.equals(g, "::")) { gateway = text.string(g) }
        }
        return Route(destination: destination, gateway: gateway,
                     interface: c.iface >= 0 ? text.string(t[c.iface]) : nil,
                     metric: c.metric >= 0 ? text.signedInt(t[c.metric]) : nil,
                     flags: c.flags >= 0 ? text.string(t[c.flags]) : nil)
    }
}
