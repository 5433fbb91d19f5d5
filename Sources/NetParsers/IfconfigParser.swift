/// Reads `ifconfig` in the flags layout shared by Linux net-tools 2.10+, FreeBSD and macOS:
/// a header `NAME: flags=N<UP,…> [metric M] mtu N`, then indented `inet`, `inet6`, `ether`, `RX/TX` lines.
struct IfconfigParser {
    let text: ByteText

    func parse() -> ParseResult<Interface> {
        var linuxLayout = false
        let blocks = InterfaceBlocks(text: text, headerName: "ifconfig interface header", reportOrphans: true)
        let (items, warnings) = blocks.read(header: { line in
            guard let header = parseHeader(line) else { return .unknown }
            linuxLayout = linuxLayout || header.linux
            return .opens(header.interface)
        }, detail: parseDetail)
        return ParseResult(items: items, format: linuxLayout ? .ifconfigLinux : .ifconfigBSD, warnings: warnings)
    }

    /// The interface a header line opens, and whether it has Linux's two spaces before `mtu`.
    private func parseHeader(_ line: Range<Int>) -> (interface: Interface, linux: Bool)? {
        guard let flagsAt = text.find(": flags=", in: line), flagsAt > line.lowerBound else { return nil }
        let name = text.string(line.lowerBound..<flagsAt)
        var interface = Interface(name: name, state: .down)
        let rest = (flagsAt + 8)..<line.upperBound
        if let open = text.firstIndex(of: UInt8(ascii: "<"), in: rest),
           let close = text.firstIndex(of: UInt8(ascii: ">"), in: open..<line.upperBound) {
            if text.hasFlag("UP", in: (open + 1)..<close) { interface.state = .up }
        }
        var linux = false
        if let mtuAt = text.find(" mtu ", in: rest) {
            linux = mtuAt > rest.lowerBound && text[mtuAt - 1] == 0x20
            var i = mtuAt + 5
            if let tok = text.nextToken(&i, line.upperBound) { interface.mtu = text.int(tok) }
        }
        return (interface, linux)
    }

    /// Reads one indented line into `interface`; false when it named an address it could not read.
    private func parseDetail(_ line: Range<Int>, into interface: inout Interface) -> Bool {
        let t = text.tokens(line)
        guard t.count > 0 else { return true }
        let key = t[0]
        if text.equals(key, "inet") {
            guard t.count > 1 else { return false }
            let (addr, cidrPrefix) = text.splitCIDR(t[1])
            guard text.isIPv4(addr) else { return false }
            var prefix = cidrPrefix
            var broadcast: String?
            var k = 2
            while k + 1 < t.count {
                if text.equals(t[k], "netmask") { prefix = text.prefix(fromMask: t[k + 1]) ?? prefix }
                if text.equals(t[k], "broadcast") && text.isIPv4(t[k + 1]) { broadcast = text.string(t[k + 1]) }
                k += 2
            }
            interface.ipv4.append(IPv4Address(address: text.string(addr), prefix: prefix, broadcast: broadcast))
        } else if text.equals(key, "inet6") {
            guard t.count > 1 else { return false }
            let (addrWithZone, cidrPrefix) = text.splitCIDR(t[1])
            let addr = text.withoutZone(addrWithZone)
            guard text.isIPv6(addr) else { return false }
            var prefix = cidrPrefix
            var scope: String?
            var k = 2
            while k + 1 < t.count {
                if text.equals(t[k], "prefixlen") {
                    prefix = text.int(t[k + 1]) ?? prefix
                    k += 2
                } else if text.equals(t[k], "scopeid") {
                    scope = scopeName(t[k + 1])
                    k += 2
                } else {
                    k += 1
                }
            }
            interface.ipv6.append(IPv6Address(address: text.string(addr), prefix: prefix, scope: scope))
        } else if text.equals(key, "ether") || text.equals(key, "lladdr") {
            if t.count > 1, let mac = text.mac(t[1]) { interface.mac = mac }
        } else if t.count >= 5 && (text.equals(key, "RX") || text.equals(key, "TX"))
                    && text.equals(t[1], "packets") && text.equals(t[3], "bytes") {
            if text.equals(key, "RX") { interface.rxBytes = text.int(t[4]) } else { interface.txBytes = text.int(t[4]) }
        }
        return true
    }

    /// Linux prints `scopeid 0x20<link>`: the name in angle brackets. BSD's bare number is an interface index.
    private func scopeName(_ r: Range<Int>) -> String? {
        guard let open = text.firstIndex(of: UInt8(ascii: "<"), in: r),
              let close = text.lastIndex(of: UInt8(ascii: ">"), in: r), close > open + 1 else { return nil }
        return text.string((open + 1)..<close)
    }
}

extension ByteText {
    /// Whether a comma-separated flag list (the inside of `<…>`) holds exactly `flag`.
    func hasFlag(_ flag: StaticString, in list: Range<Int>) -> Bool {
        var start = list.lowerBound
        var i = list.lowerBound
        while i <= list.upperBound {
            if i == list.upperBound || bytes[i] == UInt8(ascii: ",") {
                if equals(start..<i, flag) { return true }
                start = i + 1
            }
            i += 1
        }
        return false
    }
}
