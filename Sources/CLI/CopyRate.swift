import Foundation

/// `--limit RATE` of `essh cp`: bytes per second for the whole copy, written `500K`, `10M`, `1.5G` or a plain number
/// of bytes. K, M and G count 1024s (as rsync's --bwlimit), an optional `B`, `iB` or `/s` after them is accepted.
package enum CopyRate {
    /// A rate that cannot be read, with how to write it.
    package struct Problem: Error, Sendable, Equatable {
        package let message: String
    }

    /// Bytes per second, at least 1.
    package static func parse(_ text: String) throws(Problem) -> Int64 {
        var word = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        let how = "--limit \(text): give bytes per second as a number with K, M or G (500K, 10M, 1G; K is 1024)."
        for suffix in ["/s", "ps"] where word.hasSuffix(suffix) { word = word.dropLast(suffix.count) }
        for suffix in ["ib", "b"] where word.hasSuffix(suffix) && word.count > suffix.count {
            word = word.dropLast(suffix.count)
            break
        }
        var unit: Double = 1
        if let last = word.last, let power = ["k": 1, "m": 2, "g": 3][String(last)] {
            unit = Double(1 << (10 * power))
            word = word.dropLast()
        }
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let number = Double(word), number.isFinite
        else { throw Problem(message: how) }
        let bytes = (number * unit).rounded(.down)
        guard bytes >= 1 else {
            throw Problem(message: "--limit \(text): the rate must be at least 1 byte per second (or leave --limit "
                          + "out for no limit).")
        }
        guard bytes < Double(Int64.max) else { throw Problem(message: how) }
        return Int64(bytes)
    }
}
