import Foundation

/// Header text (RFC 2047 encoded-words and RFC 5322 folding). Header lines must be ASCII of at most 998 bytes and
/// should stay under 78: printable ASCII is folded at spaces when every word fits on a line; anything else (non-ASCII,
/// a word too long to fold, text that looks like an encoded word) becomes `=?UTF-8?B?…?=` words, each at most 75
/// characters, one per line of at most 76, never splitting a character's bytes.
public enum EncodedWord {
    /// Lines of folded plain text stay within this (RFC 5322 2.1.1's "should").
    static let plainLineLimit = 78
    /// Lines of encoded words stay within this (RFC 2047 §2).
    static let encodedLineLimit = 76
    /// An encoded word is at most this long (RFC 2047 §2).
    static let wordLimit = 75

    /// `Name: value` as one or more folded lines (joined by "\n" plus a space), without the final newline.
    public static func header(_ name: String, _ value: String) -> String {
        let isPlain = value.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        // Text that merely looks like an encoded word must be encoded too, or a reader would decode it.
        if isPlain && !value.contains("=?") {
            let folded = fold(name + ": " + value)
            // A word too long for one line cannot be folded; encoded, it can be cut anywhere.
            if folded.split(separator: "\n").allSatisfy({ $0.utf8.count <= plainLineLimit }) { return folded }
        }
        let first = name.utf8.count + 2
        return name + ": " + encodedWords(value, firstRoom: encodedLineLimit - first).joined(separator: "\n ")
    }

    /// The value as B-encoded words, cut only between Unicode scalars: the first word fits in `firstRoom`
    /// characters (what is left of the first line after the header's name), the others in a folded line.
    static func encodedWords(_ value: String, firstRoom: Int = wordLimit) -> [String] {
        // 12 characters of `=?UTF-8?B??=` around the base64, which takes 4 characters per 3 bytes.
        func capacity(_ room: Int) -> Int { max(1, (min(room, wordLimit) - 12) / 4) * 3 }
        var limit = capacity(firstRoom)
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in value.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > limit {
                words.append(word(chunk))
                chunk = []
                limit = capacity(encodedLineLimit - 1)
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(word(chunk)) }
        return words
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    /// Folds a plain ASCII header line at spaces so lines stay under 78 characters where a space allows it.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > plainLineLimit else { return line }
        var lines: [String] = []
        var current = ""
        for (index, piece) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index == 0 {
                current = String(piece)
            } else if current.utf8.count + 1 + piece.utf8.count > plainLineLimit
                        && !current.trimmingCharacters(in: .whitespaces).isEmpty && !current.hasSuffix(":") {
                lines.append(current)
                current = " " + piece
            } else {
                current += " " + piece
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    /// A header value as read from a message: unfolded, encoded words (B or Q, UTF-8 or ISO-8859-1 / US-ASCII)
    /// decoded, and the whitespace between two adjacent encoded words dropped (RFC 2047 §6.2).
    public static func decode(_ raw: String) -> String {
        let unfolded = raw.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n ", with: " ").replacingOccurrences(of: "\n\t", with: "\t")
        var result = ""
        var pendingSpace = ""
        var lastWasEncoded = false
        var rest = Substring(unfolded)
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let (text, length) = decodeWord(rest) {
                if !lastWasEncoded { result += pendingSpace }
                pendingSpace = ""
                result += text
                rest = rest.dropFirst(length)
                lastWasEncoded = true
                continue
            }
            let c = rest.first!
            rest = rest.dropFirst()
            if c == " " || c == "\t" {
                pendingSpace.append(c)
            } else {
                result += pendingSpace
                pendingSpace = ""
                result.append(c)
                lastWasEncoded = false
            }
        }
        return result + pendingSpace
    }

    /// Decodes one `=?charset?enc?text?=` at the start of `text`: the decoded text and the characters it used.
    private static func decodeWord(_ text: Substring) -> (String, Int)? {
        let parts = text.dropFirst(2).split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("=") else { return nil }
        let charset = parts[0].lowercased(), encoding = parts[1].lowercased(), payload = parts[2]
        let length = 2 + parts[0].count + 1 + parts[1].count + 1 + payload.count + 2
        let bytes: [UInt8]
        switch encoding {
        case "b":
            guard let data = Data(base64Encoded: String(payload)) else { return nil }
            bytes = Array(data)
        case "q":
            bytes = QuotedPrintable.decode(Array(payload.utf8).map { $0 == UInt8(ascii: "_") ? 0x20 : $0 })
        default:
            return nil
        }
        switch charset {
        case "utf-8", "utf8", "us-ascii": return (String(decoding: bytes, as: UTF8.self), length)
        case "iso-8859-1", "latin1": return (String(bytes.map { Character(Unicode.Scalar($0)) }), length)
        default: return nil
        }
    }
}
