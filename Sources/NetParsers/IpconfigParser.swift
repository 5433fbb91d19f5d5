/// Reads Windows `ipconfig` and `ipconfig /all` (English): `… adapter NAME:` blocks of `Key . . . : value` lines.
struct IpconfigParser {
    let text: ByteText

    func parse() -> ParseResult<Interface> {
        let blocks = InterfaceBlocks(text: text, headerName: "ipconfig adapter header", reportOrphans: false)
        let (items, warnings) = blocks.read(header: header, detail: detail)
        return ParseResult(items: items, format: .ipconfig, warnings: warnings)
    }

    /// `Ethernet adapter Local Area Connection:` opens an adapter; the `Windows IP Configuration` title opens none.
    private func header(_ line: Range<Int>) -> InterfaceBlocks.Header {
        let trimmed = text.trimmed(line)
        if let adapter = text.find(" adapter ", in: trimmed), text.hasSuffix(trimmed, ":") {
            // Shown adapters are connected unless ipconfig says `Media disconnected`.
            return .opens(Interface(name: text.string((adapter + 9)..<(trimmed.upperBound - 1)), state: .up))
        }
        return text.hasPrefix(trimmed, "Windows IP Configuration") ? .ignored : .unknown
    }

    /// A `Key . . . : value` line (or a key whose value follows on the next lines).
    private func detail(_ line: Range<Int>, _ interface: inout Interface) -> Bool {
        guard let colon = text.find(" : ", in: line) ?? trailingColon(line) else { return true }
        let key = keyRange(line.lowerBound..<colon)
        let value = text.trimmed(min(colon + 3, line.upperBound)..<line.upperBound)
        return apply(key: key, value: value, to: &interface)
    }

    /// `Key :` with nothing after it (a value on the next lines).
    private func trailingColon(_ line: Range<Int>) -> Int? {
        let t = text.trimmed(line)
        return text.hasSuffix(t, " :") ? t.upperBound - 2 : nil
    }

    /// The key without its leader of dots and spaces: `Subnet Mask . . . . ` → `Subnet Mask`.
    private func keyRange(_ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi && isSpace(text[lo]) { lo += 1 }
        while hi > lo && (isSpace(text[hi - 1]) || text[hi - 1] == UInt8(ascii: ".")) { hi -= 1 }
        return lo..<hi
    }

    /// The value up to a `(Preferred)`-style note and without a `%zone`.
    private func bareAddress(_ value: Range<Int>) -> Range<Int> {
        var r = value
        if let paren = text.firstIndex(of: UInt8(ascii: "("), in: r) { r = r.lowerBound..<paren }
        return text.withoutZone(text.trimmed(r))
    }

    private func apply(key: Range<Int>, value: Range<Int>, to adapter: inout Interface) -> Bool {
        if text.equals(key, "Physical Address") {
            adapter.mac = text.mac(value)
        } else if text.equals(key, "IPv4 Address") || text.equals(key, "IP Address")
                    || text.equals(key, "Autoconfiguration IPv4 Address")
                    || text.equals(key, "Autoconfiguration IP Address") {
            let addr = bareAddress(value)
            if text.isIPv4(addr) {
                adapter.ipv4.append(IPv4Address(address: text.string(addr), prefix: nil))
            } else if text.isIPv6(addr) {
                // Old Windows lists IPv6 addresses under `IP Address` too.
                adapter.ipv6.append(IPv6Address(address: text.string(addr), prefix: nil, scope: nil))
            } else {
                return false
            }
        } else if text.equals(key, "Subnet Mask") {
            guard !adapter.ipv4.isEmpty, let prefix = text.prefix(fromMask: bareAddress(value)) else { return false }
            adapter.ipv4[adapter.ipv4.count - 1].prefix = prefix
        } else if text.equals(key, "IPv6 Address") || text.equals(key, "Temporary IPv6 Address")
                    || text.equals(key, "Link-local IPv6 Address") {
            let addr = bareAddress(value)
            guard text.isIPv6(addr) else { return false }
            let scope: String? = text.hasPrefix(key, "Link-local") ? "link" : nil
            adapter.ipv6.append(IPv6Address(address: text.string(addr), prefix: nil, scope: scope))
        } else if text.equals(key, "Media State") {
            if text.find("disconnected", in: value) != nil { adapter.state = .down }
        }
        return true
    }
}
