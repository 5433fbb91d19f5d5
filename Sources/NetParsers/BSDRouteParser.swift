/// Reads FreeBSD and macOS `netstat -rn`: `Internet:` and `Internet6:` sections, each with a
/// `Destination Gateway Flags … Netif Expire` header. Columns are found by name (macOS adds Refs and Use).
struct BSDRouteParser {
    let text: ByteText

    func parse() -> ParseResult<Route> {
        var items: [Route] = []
        var warnings: [String] = []
        var ipv6 = false
        var inSection = false
        var destinationColumn = -1, gatewayColumn = -1, flagsColumn = -1, netifColumn = -1
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty || text.hasPrefix(trimmed, "Routing tables") { return true }
            if text.equals(trimmed, "Internet:") { ipv6 = false; inSection = true; return true }
            if text.equals(trimmed, "Internet6:") { ipv6 = true; inSection = true; return true }
            if text.hasSuffix(trimmed, ":") && !isDigit(text[trimmed.lowerBound]) {
                inSection = false  // another address family (AppleTalk, link): not routes we model
                return true
            }
            guard inSection else { return true }
            let t = text.tokens(trimmed)
            if text.equals(t[0], "Destination") {
                destinationColumn = 0
                gatewayColumn = -1; flagsColumn = -1; netifColumn = -1
                for k in 0..<t.count {
                    if text.equals(t[k], "Gateway") { gatewayColumn = k }
                    if text.equals(t[k], "Flags") { flagsColumn = k }
                    if text.equals(t[k], "Netif") { netifColumn = k }
                }
                return true
            }
            guard destinationColumn == 0, gatewayColumn > 0, netifColumn > 0, t.count > max(gatewayColumn, netifColumn)
            else {
                warnings.append("line \(lineNumber): not a netstat -rn route row, skipped")
                return true
            }
            let g = t[gatewayColumn]
            let gateway: String? = text.hasPrefix(g, "link#") ? nil : text.string(g)
            items.append(Route(destination: destination(t[0], ipv6: ipv6), gateway: gateway,
                               interface: text.string(t[netifColumn]), metric: nil,
                               flags: flagsColumn >= 0 && flagsColumn < t.count ? text.string(t[flagsColumn]) : nil))
            return true
        }
        return ParseResult(items: items, format: .netstatRoutesBSD, warnings: warnings)
    }

    /// CIDR form of a BSD destination: `default`, zones removed, and macOS's short networks (`127`, `169.254`,
    /// `224.0.0/4`) padded to four octets with the prefix their octet count implies.
    private func destination(_ r: Range<Int>, ipv6: Bool) -> String {
        if text.equals(r, "default") { return ipv6 ? "::/0" : "0.0.0.0/0" }
        var (addr, prefix) = text.splitCIDR(r)
        addr = text.withoutZone(addr)
        if ipv6 || text.firstIndex(of: UInt8(ascii: ":"), in: addr) != nil {
            guard text.isIPv6(addr) else { return text.string(r) }  // a host name: kept as printed
            return text.string(addr) + "/\(prefix ?? 128)"
        }
        var octets = 1
        for i in addr where text[i] == UInt8(ascii: ".") { octets += 1 }
        let allDigits = addr.allSatisfy { isDigit(text[$0]) || text[$0] == UInt8(ascii: ".") }
        guard allDigits, octets <= 4, !addr.isEmpty else { return text.string(r) }  // a host name: kept as printed
        var address = text.string(addr)
        for _ in octets..<4 { address += ".0" }
        return address + "/\(prefix ?? octets * 8)"
    }
}
