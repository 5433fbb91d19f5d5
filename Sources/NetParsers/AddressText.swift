/// Address spellings shared by the parsers: masks to prefix lengths, MAC normalisation, zones and CIDR suffixes.
extension ByteText {
    /// The prefix length of a dotted (`255.255.255.0`) or hex (`0xffffff00`) netmask; nil for anything else.
    /// A non-contiguous mask counts its one bits, which is what the kernel uses for the length.
    func prefix(fromMask r: Range<Int>) -> Int? {
        if r.count > 2 && bytes[r.lowerBound] == UInt8(ascii: "0") && bytes[r.lowerBound + 1] | 0x20 == UInt8(ascii: "x") {
            let digits = (r.lowerBound + 2)..<r.upperBound
            guard digits.count == 8 else { return nil }
            var bits = 0
            for i in digits {
                guard let v = hexValue(bytes[i]) else { return nil }
                bits += v.nonzeroBitCount
            }
            return bits
        }
        var bits = 0, octets = 0, value = -1
        for i in r {
            let c = bytes[i]
            if c == UInt8(ascii: ".") {
                guard value >= 0, value <= 255 else { return nil }
                bits += value.nonzeroBitCount
                octets += 1
                value = -1
            } else if isDigit(c) {
                value = (value < 0 ? 0 : value) * 10 + Int(c - 0x30)
                if value > 255 { return nil }
            } else {
                return nil
            }
        }
        guard value >= 0, octets == 3 else { return nil }
        return bits + value.nonzeroBitCount
    }

    /// A MAC address (6 or 8 groups of hex separated by `:` or `-`, one or two digits each), lowercase with
    /// colons and two digits per group; nil when `r` is not one.
    func mac(_ r: Range<Int>) -> String? {
        var groups = 0, digitsInGroup = 0
        var sep: UInt8 = 0
        for i in r {
            let c = bytes[i]
            if c == UInt8(ascii: ":") || c == UInt8(ascii: "-") {
                if sep == 0 { sep = c }
                guard c == sep, digitsInGroup > 0 else { return nil }
                groups += 1
                digitsInGroup = 0
            } else if isHexDigit(c) {
                digitsInGroup += 1
                if digitsInGroup > 2 { return nil }
            } else {
                return nil
            }
        }
        guard digitsInGroup > 0 else { return nil }
        groups += 1
        guard groups == 6 || groups == 8 else { return nil }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: groups * 3 - 1) { out in
            var j = 0, groupStart = r.lowerBound
            var i = r.lowerBound
            while i <= r.upperBound {
                if i == r.upperBound || bytes[i] == sep {
                    var v = 0
                    for k in groupStart..<i { v = v * 16 + (hexValue(bytes[k]) ?? 0) }
                    if j > 0 { out[j] = UInt8(ascii: ":"); j += 1 }
                    out[j] = hex[v >> 4]
                    out[j + 1] = hex[v & 15]
                    j += 2
                    groupStart = i + 1
                }
                i += 1
            }
            return j
        }
    }

    /// `r` up to a `%zone` suffix.
    func withoutZone(_ r: Range<Int>) -> Range<Int> {
        if let p = firstIndex(of: UInt8(ascii: "%"), in: r) { return r.lowerBound..<p }
        return r
    }

    /// Splits `address/prefix`; the prefix is nil when there is no `/` or it is not a number.
    func splitCIDR(_ r: Range<Int>) -> (address: Range<Int>, prefix: Int?) {
        guard let slash = lastIndex(of: UInt8(ascii: "/"), in: r) else { return (r, nil) }
        return (r.lowerBound..<slash, int((slash + 1)..<r.upperBound))
    }

    /// Whether `r` looks like an IPv4 address (digits and three dots).
    func isIPv4(_ r: Range<Int>) -> Bool {
        var dots = 0, digits = 0
        for i in r {
            let c = bytes[i]
            if c == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                dots += 1
                digits = 0
            } else if isDigit(c) {
                digits += 1
                if digits > 3 { return false }
            } else {
                return false
            }
        }
        return dots == 3 && digits > 0
    }

    /// Whether `r` looks like an IPv6 address (hex digits, colons, at least two colons, optional dotted tail).
    func isIPv6(_ r: Range<Int>) -> Bool {
        var colons = 0
        for i in r {
            let c = bytes[i]
            if c == UInt8(ascii: ":") { colons += 1 } else if !(isHexDigit(c) || c == UInt8(ascii: ".")) { return false }
        }
        return colons >= 2
    }
}

@inline(__always) func hexValue(_ c: UInt8) -> Int? {
    if isDigit(c) { return Int(c - 0x30) }
    let l = c | 0x20
    if l >= 0x61 && l <= 0x66 { return Int(l - 0x61 + 10) }
    return nil
}
