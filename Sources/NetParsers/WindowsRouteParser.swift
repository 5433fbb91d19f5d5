/// Reads Windows `route print`: the interface list (index → name), the IPv4 table
/// (`Network Destination Netmask Gateway Interface Metric`) and the IPv6 table (`If Metric Network Destination
/// Gateway`, where a long destination pushes the gateway onto the next line). Persistent routes are configuration,
/// already present among the active routes, and are not listed twice.
struct WindowsRouteParser {
    let text: ByteText

    private enum Section { case none, interfaces, ipv4, ipv6, persistent }

    func parse() -> ParseResult<Route> {
        var items: [Route] = []
        var warnings: [String] = []
        var names: [Int: String] = [:]
        var section = Section.none
        var pendingV6: Route?
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            let trimmed = text.trimmed(line)
            if trimmed.isEmpty || text[trimmed.lowerBound] == UInt8(ascii: "=") { return true }
            if text.hasPrefix(trimmed, "Interface List") { section = .interfaces; return true }
            if text.hasPrefix(trimmed, "IPv4 Route Table") { section = .ipv4; return true }
            if text.hasPrefix(trimmed, "IPv6 Route Table") { section = .ipv6; return true }
            if text.hasPrefix(trimmed, "Persistent Routes") { section = .persistent; return true }
            if text.hasPrefix(trimmed, "Active Routes") || text.hasPrefix(trimmed, "Network Destination")
                || text.hasPrefix(trimmed, "If Metric") || text.hasPrefix(trimmed, "Network Address")
                || text.equals(trimmed, "None") {
                return true
            }
            let t = text.tokens(trimmed)
            switch section {
            case .none, .persistent:
                return true
            case .interfaces:
                if let (index, name) = interfaceEntry(trimmed) { names[index] = name }
            case .ipv4:
                guard t.count == 5, let prefix = text.prefix(fromMask: t[1]) else {
                    warnings.append("line \(lineNumber): not an IPv4 route row, skipped")
                    return true
                }
                items.append(Route(destination: text.string(t[0]) + "/\(prefix)", gateway: gateway(t[2]),
                                   interface: text.string(t[3]), metric: text.int(t[4]), flags: nil))
            case .ipv6:
                if t.count == 1, var route = pendingV6 {
                    route.gateway = gateway(t[0])
                    items.append(route)
                    pendingV6 = nil
                    return true
                }
                guard t.count >= 3, let index = text.int(t[0]) else {
                    warnings.append("line \(lineNumber): not an IPv6 route row, skipped")
                    return true
                }
                let route = Route(destination: text.string(t[2]), gateway: t.count > 3 ? gateway(t[3]) : nil,
                                  interface: names[index] ?? text.string(t[0]), metric: text.int(t[1]), flags: nil)
                if t.count > 3 { items.append(route) } else { pendingV6 = route }
            }
            return true
        }
        if let route = pendingV6 { items.append(route) }
        return ParseResult(items: items, format: .routePrint, warnings: warnings)
    }

    private func gateway(_ r: Range<Int>) -> String? {
        text.equals(r, "On-link") ? nil : text.string(r)
    }

    /// `  8...00 ff 58 60 5f 61 ......TAP-Windows Adapter V9` → (8, "TAP-Windows Adapter V9").
    private func interfaceEntry(_ r: Range<Int>) -> (Int, String)? {
        var i = r.lowerBound
        while i < r.upperBound && isDigit(text[i]) { i += 1 }
        guard let index = text.int(r.lowerBound..<i) else { return nil }
        while i < r.upperBound && text[i] == UInt8(ascii: ".") { i += 1 }
        // The MAC (if any) is followed by its own run of dots, then the name.
        if let dots = text.find("...", in: i..<r.upperBound) {
            i = dots
            while i < r.upperBound && text[i] == UInt8(ascii: ".") { i += 1 }
        }
        let name = text.trimmed(i..<r.upperBound)
        return name.isEmpty ? nil : (index, text.string(name))
    }
}
