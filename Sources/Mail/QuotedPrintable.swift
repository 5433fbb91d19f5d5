/// Quoted-printable (RFC 2045 §6.7) for text bodies: readable where the text is ASCII, safe for any byte, lines
/// at most 76 characters. Line breaks of the text ("\n") stay line breaks; a lone CR is encoded as `=0D`.
public enum QuotedPrintable {
    static let hex = Array("0123456789ABCDEF".utf8)

    /// Encodes `bytes`; the result's lines are separated by "\n".
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var lineLength = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                out.append(byte)
                lineLength = 0
                index += 1
                continue
            }
            let atLineEnd = index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: "\n")
            let literal = (33...126).contains(byte) && byte != UInt8(ascii: "=")
                || ((byte == 0x20 || byte == 0x09) && !atLineEnd)
            let width = literal ? 1 : 3
            // Leave room for the soft break's "=" (76 in all); the last character of a line may use the 76th.
            let limit = atLineEnd ? 76 : 75
            if lineLength + width > limit {
                out += [UInt8(ascii: "="), UInt8(ascii: "\n")]
                lineLength = 0
            }
            // After any soft break, so a "From " the break moved to a line start is caught too.
            if literal && !(lineLength == 0 && startsFromLine(bytes, at: index)) {
                out.append(byte)
                lineLength += 1
            } else {
                out += [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                lineLength += 3
            }
            index += 1
        }
        return out
    }

    /// True when `bytes` has "From " at `index`: at a line start, mbox MTAs (dma) would turn it into ">From ", so
    /// its F is written as `=46`.
    private static func startsFromLine(_ bytes: [UInt8], at index: Int) -> Bool {
        bytes[index...].starts(with: "From ".utf8)
    }

    /// Decodes quoted-printable: soft breaks (`=` at a line end) removed, `=XX` turned into bytes, and the
    /// whitespace transport may add at line ends dropped. Malformed `=` sequences are kept as they are.
    public static func decode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var lineStart = 0
        // Works line by line so trailing whitespace can be dropped before decoding.
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let hasBreak = lineEnd < bytes.count
            var end = lineEnd
            if end > lineStart && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            while end > lineStart && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            var soft = false
            var index = lineStart
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "=") {
                    if index + 1 == end { soft = true; index += 1; continue }
                    if index + 2 < end, let hi = value(bytes[index + 1]), let lo = value(bytes[index + 2]) {
                        out.append(hi << 4 | lo)
                        index += 3
                        continue
                    }
                }
                out.append(byte)
                index += 1
            }
            if hasBreak && !soft { out.append(UInt8(ascii: "\n")) }
            if !hasBreak { break }
            lineStart = lineEnd + 1
        }
        return out
    }

    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
