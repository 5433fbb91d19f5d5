/// The base64 the age format uses: RFC 4648 standard alphabet, no `=` padding, canonical only (the unused low bits
/// of the last character must be zero), as the specification requires of decoders.
enum AgeBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)]]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil for any character outside the alphabet (including `=`), a length of 1 mod 4, or non-zero spare bits.
    static func decode<S: Collection>(_ text: S) -> [UInt8]? where S.Element == UInt8 {
        var values: [UInt32] = []
        values.reserveCapacity(text.count)
        for c in text {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(UInt32(c - UInt8(ascii: "A")))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(UInt32(c - UInt8(ascii: "a") + 26))
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(UInt32(c - UInt8(ascii: "0") + 52))
            case UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "/"): values.append(63)
            default: return nil
            }
        }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        var i = 0
        while i + 4 <= values.count {
            let n = values[i] << 18 | values[i + 1] << 12 | values[i + 2] << 6 | values[i + 3]
            out += [UInt8(n >> 16), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            i += 4
        }
        let rest = values.count - i
        if rest == 2 {
            guard values[i + 1] & 0x0F == 0 else { return nil }
            out.append(UInt8((values[i] << 2) | (values[i + 1] >> 4)))
        } else if rest == 3 {
            guard values[i + 2] & 0x03 == 0 else { return nil }
            let n = values[i] << 18 | values[i + 1] << 12 | values[i + 2] << 6
            out += [UInt8(n >> 16), UInt8(n >> 8 & 0xFF)]
        }
        return out
    }
}
