/// Reads `ip addr` text (`N: name[@parent]: <FLAGS> mtu N … state S`, then `link/…`, `inet`, `inet6` lines)
/// and `ip -o addr` (one `N: name inet|inet6 ADDR/PREFIX … scope S …` record per line).
struct IPAddrParser {
    let text: ByteText

    func parse() -> ParseResult<Interface> {
        var items: [Interface] = []
        var warnings: [String] = []
        var oneLine = false
        // `ip -o addr` repeats the interface on every line; records of one interface may not be adjacent.
        var positionByName: [String: Int] = [:]
        var lineNumber = 0
        text.forEachLine { line in
            lineNumber += 1
            if line.isEmpty || text.isBlank(line) { return true }
            if isDigit(text[line.lowerBound]) {
                let t = text.tokens(line, max: 4)
                guard t.count >= 3, text.hasSuffix(t[0], ":") else {
                    warnings.append("line \(lineNumber): not an ip interface line, skipped")
                    return true
                }
                if text.hasSuffix(t[1], ":") && text[t[2].lowerBound] == UInt8(ascii: "<") {
                    items.append(header(line, name: t[1].lowerBound..<(t[1].upperBound - 1)))
                    positionByName[items[items.count - 1].name] = items.count - 1
                    return true
                }
                // `ip -o addr`: `N: name family address …`, the rest after a `\` is lifetimes.
                oneLine = true
                let name = text.string(withoutParent(t[1]))
                let position: Int
                if let known = positionByName[name] {
                    position = known
                } else {
                    items.append(Interface(name: name))
                    position = items.count - 1
                    positionByName[name] = position
                }
                let record = t[2].lowerBound..<line.upperBound
                if !address(record, into: &items[position]) {
                    warnings.append("line \(lineNumber): unreadable address, skipped")
                }
                return true
            }
            guard !items.isEmpty else {
                warnings.append("line \(lineNumber): indented line before any interface, skipped")
                return true
            }
            if !detail(line, into: &items[items.count - 1]) {
                warnings.append("line \(lineNumber): unreadable address, skipped")
            }
            return true
        }
        return ParseResult(items: items, format: oneLine ? .ipAddrOneLine : .ipAddr, warnings: warnings)
    }

    /// `veth0@if3` → `veth0`: the parent after `@` is not part of the name other commands show.
    private func withoutParent(_ r: Range<Int>) -> Range<Int> {
        if let at = text.firstIndex(of: UInt8(ascii: "@"), in: r), at > r.lowerBound { return r.lowerBound..<at }
        return r
    }

    private func header(_ line: Range<Int>, name: Range<Int>) -> Interface {
        var interface = Interface(name: text.string(withoutParent(name)), state: .down)
        if let open = text.firstIndex(of: UInt8(ascii: "<"), in: line),
           let close = text.firstIndex(of: UInt8(ascii: ">"), in: open..<line.upperBound) {
            if text.hasFlag("UP", in: (open + 1)..<close) { interface.state = .up }
        }
        if let mtuAt = text.find(" mtu ", in: line) {
            var i = mtuAt + 5
            if let tok = text.nextToken(&i, line.upperBound) { interface.mtu = text.int(tok) }
        }
        return interface
    }

    /// An indented line of `ip addr`; false when it is an address line that could not be read.
    private func detail(_ line: Range<Int>, into interface: inout Interface) -> Bool {
        var i = line.lowerBound
        guard let key = text.nextToken(&i, line.upperBound) else { return true }
        if text.hasPrefix(key, "link/") {
            if let tok = text.nextToken(&i, line.upperBound) { interface.mac = text.mac(tok) }
            return true
        }
        if text.equals(key, "inet") || text.equals(key, "inet6") {
            return address(text.trimmed(line), into: &interface)
        }
        return true
    }

    /// `inet ADDR[/P] [peer P/N] [brd B] … scope S` or `inet6 ADDR/P scope S`, read into `interface`.
    private func address(_ record: Range<Int>, into interface: inout Interface) -> Bool {
        let t = text.tokens(record)
        guard t.count >= 2 else { return false }
        let isV4 = text.equals(t[0], "inet")
        guard isV4 || text.equals(t[0], "inet6") else { return !text.hasPrefix(t[0], "inet") }
        var (addr, prefix) = text.splitCIDR(t[1])
        var scope: String?
        var broadcast: String?
        var k = 2
        while k + 1 < t.count {
            if text.equals(t[k], "peer") && prefix == nil {
                prefix = text.splitCIDR(t[k + 1]).prefix
            } else if text.equals(t[k], "scope") {
                scope = text.string(t[k + 1])
            } else if text.equals(t[k], "brd") && text.isIPv4(t[k + 1]) {
                broadcast = text.string(t[k + 1])
            }
            k += 1
        }
        if isV4 {
            guard text.isIPv4(addr) else { return false }
            interface.ipv4.append(IPv4Address(address: text.string(addr), prefix: prefix, broadcast: broadcast,
                                              scope: scope))
        } else {
            addr = text.withoutZone(addr)
            guard text.isIPv6(addr) else { return false }
            interface.ipv6.append(IPv6Address(address: text.string(addr), prefix: prefix, scope: scope))
        }
        return true
    }
}
