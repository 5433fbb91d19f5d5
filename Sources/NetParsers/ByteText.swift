import Foundation

/// A read-only view of the input bytes with the scanning helpers every parser shares.
/// Parsers work on byte offsets into one buffer so the hot loops allocate nothing per line; strings are made only
/// for the values that end up in a model.
struct ByteText {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    subscript(_ i: Int) -> UInt8 { bytes[i] }

    /// Calls `body` with each line's range, without its `\n` or a trailing `\r`. Returning false stops the walk.
    func forEachLine(_ body: (Range<Int>) -> Bool) {
        var start = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return }
        while start < n {
            var end = start
            if let p = memchr(base + start, 0x0A, n - start) {
                end = p.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
            } else {
                end = n
            }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if !body(start..<lineEnd) { return }
            start = end + 1
        }
    }

    /// Every line's range, for parsers that look ahead or back.
    func lines() -> [Range<Int>] {
        var result: [Range<Int>] = []
        forEachLine { result.append($0); return true }
        return result
    }

    func string(_ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)
    }

    /// The string of `r`, lowercased for ASCII letters (MAC addresses, protocol names).
    func lowercasedString(_ r: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: r.count) { out in
            var j = 0
            for i in r {
                let c = bytes[i]
                out[j] = (c >= 0x41 && c <= 0x5A) ? c | 0x20 : c
                j += 1
            }
            return j
        }
    }

    func isBlank(_ r: Range<Int>) -> Bool {
        for i in r where !isSpace(bytes[i]) { return false }
        return true
    }

    /// How many spaces or tabs start the line.
    func indent(_ r: Range<Int>) -> Int {
        var i = r.lowerBound
        while i < r.upperBound && isSpace(bytes[i]) { i += 1 }
        return i - r.lowerBound
    }

    /// The range without leading and trailing blanks.
    func trimmed(_ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi && isSpace(bytes[lo]) { lo += 1 }
        while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// The next blank-separated token from `i`, moving `i` past it.
    func nextToken(_ i: inout Int, _ end: Int) -> Range<Int>? {
        while i < end && isSpace(bytes[i]) { i += 1 }
        guard i < end else { return nil }
        let start = i
        while i < end && !isSpace(bytes[i]) { i += 1 }
        return start..<i
    }

    /// Up to `max` blank-separated tokens of the line, in a small fixed array; `count` tells how many were found.
    func tokens(_ r: Range<Int>, max: Int = 16) -> Tokens {
        var t = Tokens()
        var i = r.lowerBound
        while t.count < min(max, Tokens.capacity), let tok = nextToken(&i, r.upperBound) { t.append(tok) }
        t.rest = i..<r.upperBound
        return t
    }

    func equals(_ r: Range<Int>, _ literal: StaticString) -> Bool {
        guard r.count == literal.utf8CodeUnitCount else { return false }
        return hasPrefix(r, literal)
    }

    func hasPrefix(_ r: Range<Int>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard r.count >= n else { return false }
        let p = literal.utf8Start
        for k in 0..<n where bytes[r.lowerBound + k] != p[k] { return false }
        return true
    }

    func hasSuffix(_ r: Range<Int>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard r.count >= n else { return false }
        return hasPrefix((r.upperBound - n)..<r.upperBound, literal)
    }

    /// The offset where `literal` starts inside `r`, if it occurs.
    func find(_ literal: StaticString, in r: Range<Int>) -> Int? {
        let n = literal.utf8CodeUnitCount
        guard n > 0, r.count >= n else { return nil }
        let first = literal.utf8Start[0]
        var i = r.lowerBound
        let last = r.upperBound - n
        while i <= last {
            if bytes[i] == first && hasPrefix(i..<r.upperBound, literal) { return i }
            i += 1
        }
        return nil
    }

    func firstIndex(of byte: UInt8, in r: Range<Int>) -> Int? {
        var i = r.lowerBound
        while i < r.upperBound {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    func lastIndex(of byte: UInt8, in r: Range<Int>) -> Int? {
        var i = r.upperBound
        while i > r.lowerBound {
            i -= 1
            if bytes[i] == byte { return i }
        }
        return nil
    }

    /// A non-negative decimal integer filling the whole range (no sign, no blanks), or nil.
    func int(_ r: Range<Int>) -> Int? {
        guard !r.isEmpty, r.count <= 18 else { return nil }
        var v = 0
        for i in r {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }

    /// A decimal integer that may start with `-` (route metrics such as `-1`).
    func signedInt(_ r: Range<Int>) -> Int? {
        guard !r.isEmpty else { return nil }
        if bytes[r.lowerBound] == UInt8(ascii: "-") {
            return int((r.lowerBound + 1)..<r.upperBound).map { -$0 }
        }
        return int(r)
    }

    /// The decimal integer that starts the range (digits up to the first non-digit), or nil.
    func leadingInt(_ r: Range<Int>) -> Int? {
        var i = r.lowerBound
        while i < r.upperBound && bytes[i] &- 0x30 < 10 { i += 1 }
        return int(r.lowerBound..<i)
    }
}

/// A handful of token ranges kept inline (no heap) for one line.
struct Tokens {
    static let capacity = 16
    private var storage: (Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>,
                          Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>,
                          Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0,
                                                     0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
    private(set) var count = 0
    /// What follows the last token taken (empty when the line was fully split).
    var rest: Range<Int> = 0..<0

    mutating func append(_ r: Range<Int>) {
        guard count < Tokens.capacity else { return }
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.baseAddress!.assumingMemoryBound(to: Range<Int>.self)[count] = r
        }
        count += 1
    }

    subscript(_ i: Int) -> Range<Int> {
        precondition(i >= 0 && i < count, "token index out of range")
        return withUnsafeBytes(of: storage) { raw in raw.baseAddress!.assumingMemoryBound(to: Range<Int>.self)[i] }
    }
}

@inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

@inline(__always) func isHexDigit(_ c: UInt8) -> Bool {
    isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66)
}
