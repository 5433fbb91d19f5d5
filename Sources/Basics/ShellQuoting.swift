/// One word for a POSIX shell (sh, dash, bash, zsh, ksh, busybox), from any bytes: the shell reads it back byte for
/// byte. UTF-8 runs go in single quotes (each `'` as `'\''`); a byte that is not UTF-8 becomes `"$(printf '\NNN')"`
/// (octal escapes are POSIX; bash's `$'…'` is not in dash), so the result is always valid text for an exec request.
public enum ShellQuoting {
    /// `bytes` as one shell word; the empty word is `''`.
    public static func quote(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "''" }
        var out = ""
        var run: [UInt8] = []
        func flush() {
            guard !run.isEmpty else { return }
            out += "'" + String(decoding: run, as: UTF8.self).replacingSingleQuotes() + "'"
            run.removeAll()
        }
        var i = 0
        while i < bytes.count {
            let length = validLength(bytes, i)
            if length > 0 {
                run.append(contentsOf: bytes[i..<(i + length)])
                i += length
            } else {
                flush()
                out += "\"$(printf '\\" + String(bytes[i], radix: 8) + "')\""
                i += 1
            }
        }
        flush()
        return out
    }

    /// `text` as one shell word.
    public static func quote(_ text: String) -> String { quote(Array(text.utf8)) }

    /// The length of the valid UTF-8 sequence at `i` (0: not valid there).
    private static func validLength(_ bytes: [UInt8], _ i: Int) -> Int {
        let b0 = bytes[i]
        if b0 < 0x80 { return 1 }
        let length = b0 >= 0xF8 ? 0 : b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0
        guard length > 0, i + length <= bytes.count,
              String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil else { return 0 }
        return length
    }
}

private extension String {
    func replacingSingleQuotes() -> String {
        var out = ""
        for c in unicodeScalars {
            if c == "'" { out += "'\\''" } else { out.unicodeScalars.append(c) }
        }
        return out
    }
}
