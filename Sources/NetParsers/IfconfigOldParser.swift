/// Reads Linux net-tools `ifconfig` before 2.10: `eth0      Link encap:Ethernet  HWaddr …`, `inet addr:…  Mask:…`,
/// `inet6 addr: …/64 Scope:Link`, a flags line with `MTU:`, and `RX bytes:… TX bytes:…`.
struct IfconfigOldParser {
    let text: ByteText

    func parse() -> ParseResult<Interface> {
        let blocks = InterfaceBlocks(text: text, headerName: "ifconfig interface header", reportOrphans: true)
        let (items, warnings) = blocks.read(header: header, detail: parseDetail)
        return ParseResult(items: items, format: .ifconfigLinuxOld, warnings: warnings)
    }

    /// `eth0      Link encap:Ethernet  HWaddr 00:0c:29:…` opens an interface.
    private func header(_ line: Range<Int>) -> InterfaceBlocks.Header {
        guard let encap = text.find("Link encap:", in: line) else { return .unknown }
        var i = line.lowerBound
        let name = text.nextToken(&i, encap) ?? (line.lowerBound..<encap)
        var interface = Interface(name: text.string(name))
        if let hw = text.find("HWaddr ", in: line) {
            var j = hw + 7
            if let tok = text.nextToken(&j, line.upperBound) { interface.mac = text.mac(tok) }
        }
        return .opens(interface)
    }

    private func parseDetail(_ line: Range<Int>, into interface: inout Interface) -> Bool {
        let t = text.tokens(line)
        guard t.count > 0 else { return true }
        if text.equals(t[0], "inet") {
            guard t.count > 1, text.hasPrefix(t[1], "addr:") else { return false }
            let addr = (t[1].lowerBound + 5)..<t[1].upperBound
            guard text.isIPv4(addr) else { return false }
            var prefix: Int?
            var broadcast: String?
            for k in 2..<t.count {
                if text.hasPrefix(t[k], "Mask:") {
                    prefix = text.prefix(fromMask: (t[k].lowerBound + 5)..<t[k].upperBound)
                } else if text.hasPrefix(t[k], "Bcast:"), text.isIPv4((t[k].lowerBound + 6)..<t[k].upperBound) {
                    broadcast = text.string((t[k].lowerBound + 6)..<t[k].upperBound)
                }
            }
            interface.ipv4.append(IPv4Address(address: text.string(addr), prefix: prefix, broadcast: broadcast))
        } else if text.equals(t[0], "inet6") {
            guard t.count > 2, text.equals(t[1], "addr:") else { return false }
            let (addrWithZone, prefix) = text.splitCIDR(t[2])
            let addr = text.withoutZone(addrWithZone)
            guard text.isIPv6(addr) else { return false }
            var scope: String?
            if t.count > 3, text.hasPrefix(t[3], "Scope:") {
                scope = text.lowercasedString((t[3].lowerBound + 6)..<t[3].upperBound)
            }
            interface.ipv6.append(IPv6Address(address: text.string(addr), prefix: prefix, scope: scope))
        } else if text.equals(t[0], "RX") || text.equals(t[0], "TX") {
            // `RX bytes:5602 (5.6 KB)  TX bytes:13935 (13.9 KB)` on one line; packets lines carry no bytes.
            var k = 0
            while k + 1 < t.count {
                if text.hasPrefix(t[k + 1], "bytes:") {
                    let value = text.int((t[k + 1].lowerBound + 6)..<t[k + 1].upperBound)
                    if text.equals(t[k], "RX") { interface.rxBytes = value }
                    if text.equals(t[k], "TX") { interface.txBytes = value }
                }
                k += 1
            }
        } else if let mtuAt = text.find("MTU:", in: line) {
            var i = mtuAt + 4
            if let tok = text.nextToken(&i, line.upperBound) { interface.mtu = text.int(tok) }
            interface.state = .down
            var j = line.lowerBound
            while let tok = text.nextToken(&j, mtuAt) {
                if text.equals(tok, "UP") { interface.state = .up }
            }
        }
        return true
    }
}
