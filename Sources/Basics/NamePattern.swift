/// A pattern over server names, as pdsh and ClusterShell write host lists: `*` any run of characters, `?` one,
/// `[01-20]` or `[1,3,5-7]` a numeric range or list (zero-padded as written: `[01-20]` is 01 … 20, `[1-20]` is
/// 1 … 20), anything else itself. Several ranges multiply (`rack[1-2]-n[01-04]`). Brackets holding a `:` are an
/// IPv6 address (`[::1]:2222`), not a range, and a `]` without its `[` is itself. Matching ignores case, as host
/// names do.
///
/// A pattern with ranges and no `*` or `?` also lists the names it stands for (`expanded`), so `web[01-20]` can
/// name servers that are not saved, as pdsh's `-w` does; `NameFolding` writes names back in this form.
public struct NamePattern: Sendable, Equatable {
    /// A numeric range: its first and last value and, when written zero-padded, its width.
    struct NumberRange: Sendable, Equatable {
        var low: Int
        var high: Int
        /// Digits every value is padded to (0: written without padding).
        var width: Int

        func text(_ value: Int) -> String { NameFolding.digits(value, width: width) }
    }

    enum Part: Sendable, Equatable {
        case text([Character])
        case anyRun
        case anyOne
        case numbers([NumberRange])
    }

    /// Why a pattern cannot be read: a phrase that completes "'web[1-' is not a valid name pattern: ".
    public struct Problem: Error, Sendable, Equatable {
        /// What is wrong and how it is written instead.
        public let reason: String
    }

    /// Names `expanded` lists at most: `web[0-99999999]` is refused rather than filling the memory.
    public static let expansionLimit = 100_000

    /// The pattern as written.
    public let text: String
    /// The parts as typed (names listed keep their case).
    let parts: [Part]
    /// The parts with the text lowercased, for matching.
    let lowered: [Part]

    /// Reads `text`. Throws for a bracket that is neither a numeric range nor an IPv6 address.
    public init(parsing text: String) throws(Problem) {
        self.text = text
        var parts: [Part] = []
        var literal: [Character] = []
        func flush() {
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = []
        }
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "*":
                flush()
                if parts.last != .anyRun { parts.append(.anyRun) }
                i += 1
            case "?":
                flush()
                parts.append(.anyOne)
                i += 1
            case "[":
                guard let close = chars[i...].firstIndex(of: "]") else {
                    if chars[i...].contains(":") {
                        literal += chars[i...]
                        i = chars.count
                        continue
                    }
                    throw Problem(reason: "“[” has no closing “]”; a range is written web[01-20]")
                }
                let inside = chars[(i + 1)..<close]
                if inside.contains(":") {
                    // An IPv6 address, [::1] or [2001:db8::1]:22: text, as a destination reads it.
                    literal += chars[i...close]
                } else {
                    flush()
                    parts.append(.numbers(try Self.ranges(String(inside))))
                }
                i = close + 1
            default:
                literal.append(c)
                i += 1
            }
        }
        flush()
        self.parts = parts
        lowered = Self.lowercased(parts)
    }

    static func lowercased(_ parts: [Part]) -> [Part] {
        parts.map { part in
            if case .text(let chars) = part { return .text(Array(String(chars).lowercased())) }
            return part
        }
    }

    /// A pattern that is `name` exactly, brackets and all (a line of a hosts file, a name as saved).
    public init(literal name: String) {
        text = name
        parts = name.isEmpty ? [] : [.text(Array(name))]
        lowered = Self.lowercased(parts)
    }

    /// Whether the pattern holds `*` or `?` (it can then only be matched against names, not listed).
    public var hasWildcards: Bool { parts.contains { $0 == .anyRun || $0 == .anyOne } }

    /// Whether the pattern holds a numeric range.
    public var hasRanges: Bool {
        parts.contains { if case .numbers = $0 { return true } else { return false } }
    }

    /// Whether the pattern stands for one name only, `text` itself (IPv6 brackets included).
    public var isLiteral: Bool { !hasWildcards && !hasRanges }

    /// The names a pattern without `*` or `?` stands for, in order (`web[01-03]`: web01, web02, web03), with the
    /// case of `text`; nil for a pattern with wildcards. Throws when there would be more than `expansionLimit`.
    public func expanded() throws(Problem) -> [String]? {
        guard !hasWildcards else { return nil }
        guard hasRanges else { return [text] }
        var count = 1
        for case .numbers(let ranges) in parts {
            count = count.multipliedReportingOverflow(by: ranges.reduce(0) { $0 + ($1.high - $1.low + 1) }).partialValue
            if count > Self.expansionLimit || count <= 0 {
                throw Problem(reason: "it stands for more than \(Self.expansionLimit) names")
            }
        }
        var names = [""]
        for part in parts {
            switch part {
            case .text(let chars):
                let piece = String(chars)
                names = names.map { $0 + piece }
            case .numbers(let ranges):
                let values = ranges.flatMap { range in (range.low...range.high).map(range.text) }
                names = names.flatMap { name in values.map { name + $0 } }
            case .anyRun, .anyOne:
                return nil
            }
        }
        return names
    }

    /// Whether `name` (all of it) is one the pattern stands for, ignoring case.
    public func matches(_ name: String) -> Bool {
        let chars = Array(name.lowercased())
        var failed = Set<Int>()
        func match(_ p: Int, _ i: Int) -> Bool {
            if p == lowered.count { return i == chars.count }
            let key = p * (chars.count + 1) + i
            if failed.contains(key) { return false }
            var found = false
            switch lowered[p] {
            case .text(let text):
                found = i + text.count <= chars.count && chars[i..<(i + text.count)].elementsEqual(text)
                    && match(p + 1, i + text.count)
            case .anyOne:
                found = i < chars.count && match(p + 1, i + 1)
            case .anyRun:
                found = (i...chars.count).contains { match(p + 1, $0) }
            case .numbers(let ranges):
                var end = i
                while end < chars.count, chars[end].isASCII, chars[end].isNumber, end - i < 18 {
                    end += 1
                    let digits = String(chars[i..<end])
                    if let value = Int(digits),
                       ranges.contains(where: { (($0.low)...($0.high)).contains(value) && $0.text(value) == digits }),
                       match(p + 1, end) {
                        found = true
                        break
                    }
                }
            }
            if !found { failed.insert(key) }
            return found
        }
        return match(0, 0)
    }

    /// `01-20,25` as ranges.
    static func ranges(_ inside: String) throws(Problem) -> [NumberRange] {
        func bad(_ why: String) -> Problem {
            Problem(reason: "[\(inside)] \(why); a range is written [01-20] or [1,3,5-7]")
        }
        guard !inside.isEmpty else { throw bad("is empty") }
        var ranges: [NumberRange] = []
        for item in inside.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, bounds.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII)
                                                           && $0.allSatisfy(\.isNumber) }) else {
                throw bad("holds “\(item)”, which is not a number or two numbers with a “-”")
            }
            let low = String(bounds[0]), high = String(bounds[bounds.count - 1])
            let padded = low.count > 1 && low.hasPrefix("0")
            if high.count > 1 && high.hasPrefix("0") && high.count != low.count {
                throw bad("pads \(low) and \(high) differently")
            }
            let (from, to) = (Int(low)!, Int(high)!)
            guard from <= to else { throw bad("goes down from \(low) to \(high)") }
            ranges.append(NumberRange(low: from, high: to, width: padded ? low.count : 0))
        }
        return ranges
    }
}
