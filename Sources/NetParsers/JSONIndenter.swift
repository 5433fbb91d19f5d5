import Foundation

/// One JSON document laid out for reading: one member or element per line, indented by depth, keys in the order
/// written and numbers as spelt (only whitespace between tokens changes). Used for raw JSON output (`ip -j addr` on
/// F5), which arrives as one long line. Pure.
public enum JSONIndenter {
    /// `bytes` indented by `spaces` per level, or nil when they are not exactly one JSON object or array.
    public static func indent(_ bytes: [UInt8], spaces: Int = 2) -> String? {
        let data = Data(bytes)
        guard let first = bytes.first(where: { !isBlank($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              (try? JSONSerialization.jsonObject(with: data)) != nil else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var depth = 0
        var index = 0
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: depth * spaces))
        }
        func nextToken(after i: Int) -> UInt8? {
            var j = i
            while j < bytes.count, isBlank(bytes[j]) { j += 1 }
            return j < bytes.count ? bytes[j] : nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                // A string, copied as it is (escapes included).
                out.append(byte)
                index += 1
                while index < bytes.count {
                    let c = bytes[index]
                    out.append(c)
                    index += 1
                    if c == UInt8(ascii: "\\"), index < bytes.count {
                        out.append(bytes[index])
                        index += 1
                    } else if c == UInt8(ascii: "\"") {
                        break
                    }
                }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if nextToken(after: index + 1) == close {
                    // An empty object or array stays `{}` / `[]`.
                    out.append(close)
                    while bytes[index] != close { index += 1 }
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [byte, 0x20])
            default:
                if !isBlank(byte) { out.append(byte) }
            }
            index += 1
        }
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
