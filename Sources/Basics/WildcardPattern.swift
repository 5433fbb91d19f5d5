/// OpenSSH's `*`/`?` patterns (match.c's match_pattern): `*` matches any run of bytes, `?` one byte, anything else
/// itself, on the UTF-8 bytes as OpenSSH compares them. The one matcher for ssh_config Host lines, known_hosts host
/// patterns and algorithm lists; callers lowercase first where OpenSSH does.
public enum WildcardPattern {
    /// Whether `pattern` matches all of `text`.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        var pattern = pattern, text = text
        return pattern.withUTF8 { p in text.withUTF8 { t in matches(p, t) } }
    }

    /// Whether the UTF-8 bytes `pattern` match all of `text`: a greedy walk that goes back to the last `*` on a
    /// mismatch, linear in practice.
    public static func matches(_ pattern: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?")
        var pi = 0, ti = 0
        var lastStar: Int?, resume = 0
        while ti < text.count {
            // `*` first: a `*` in the text is matched by the pattern's `*` as a wildcard, not as the same byte
            // (make fuzz found "****" failing to match "*****").
            if pi < pattern.count && pattern[pi] == star {
                lastStar = pi
                resume = ti
                pi += 1
            } else if pi < pattern.count && (pattern[pi] == question || pattern[pi] == text[ti]) {
                pi += 1
                ti += 1
            } else if let starAt = lastStar {
                pi = starAt + 1
                resume += 1
                ti = resume
            } else {
                return false
            }
        }
        while pi < pattern.count && pattern[pi] == star { pi += 1 }
        return pi == pattern.count
    }
}
