/// Socket endpoints in one spelling, `address:port` with IPv6 addresses in brackets, whatever the tool printed.
extension ByteText {
    /// `127.0.0.1:22`, `:::22`, `[::1]:22`, `*:*` → address and port split at the last colon, IPv6 bracketed.
    func colonEndpoint(_ r: Range<Int>) -> String {
        guard let colon = lastIndex(of: UInt8(ascii: ":"), in: r) else { return string(r) }
        let addr = r.lowerBound..<colon
        if !addr.isEmpty && bytes[addr.lowerBound] == UInt8(ascii: "[") { return string(r) }
        guard firstIndex(of: UInt8(ascii: ":"), in: addr) != nil else { return string(r) }
        return "[" + string(addr) + "]" + string(colon..<r.upperBound)
    }

    /// BSD's `192.168.1.5.22`, `*.22`, `fe80::1%lo0.123`, `*.*` → split at the last dot.
    func dotEndpoint(_ r: Range<Int>) -> String {
        guard let dot = lastIndex(of: UInt8(ascii: "."), in: r) else { return string(r) }
        let addr = r.lowerBound..<dot
        let port = string((dot + 1)..<r.upperBound)
        if firstIndex(of: UInt8(ascii: ":"), in: addr) != nil { return "[" + string(addr) + "]:" + port }
        return string(addr) + ":" + port
    }
}
