/// Fuzzy matching as fzf does it: the typed text matches when its characters appear
/// in order in a text, not necessarily together (`wb1` matches `web1`), ignoring case. The score ranks matches: each
/// matched character counts, more when it starts a word (the start of the text, or after a space, `-`, `_`, `.`,
/// `@`, `:`, `/`…) or continues a run of matches, less for each character skipped in between and for a longer text.
/// The shortest window the first match allows is scored (fzf's v1, without its Smith-Waterman pass). The interface's
/// filter bar uses it for the words that are not selectors.
public enum FuzzyMatch {
    /// Text prepared once for matching (lowercased, as Unicode scalars), so a keystroke over many servers costs
    /// comparisons, not conversions.
    public struct Text: Sendable, Equatable {
        /// The lowercased scalars.
        public let scalars: [Unicode.Scalar]

        /// `text` prepared for matching.
        public init(_ text: String) {
            scalars = Array(text.lowercased().unicodeScalars)
        }

        /// True for the empty text.
        public var isEmpty: Bool { scalars.isEmpty }
    }

    // fzf's weights: a match, a character starting a word (more after a space or at the text's start than after
    // another separator), the first typed character's bonus counted twice, a run of matches carrying its first
    // character's bonus, gaps costing less per character the longer they go on.
    static let match = 16
    static let startBonus = 10
    static let separatorBonus = 9
    static let consecutiveBonus = 4
    static let firstCharacterMultiplier = 2
    static let gapStart = 3
    static let gapExtension = 1

    /// The score of `pattern` in `text`, nil when its characters do not all appear in order. An empty pattern
    /// matches everything with 0.
    public static func score(_ pattern: Text, in text: Text) -> Int? {
        let p = pattern.scalars, t = text.scalars
        guard !p.isEmpty else { return 0 }
        guard p.count <= t.count else { return nil }
        // Forward: the first place where the whole pattern has appeared.
        var pi = 0
        var end = -1
        for (i, c) in t.enumerated() where c == p[pi] {
            pi += 1
            if pi == p.count {
                end = i
                break
            }
        }
        guard end >= 0 else { return nil }
        // Backward from there: the latest start, so the window is as short as the first match allows.
        pi = p.count - 1
        var start = end
        while true {
            if t[start] == p[pi] {
                if pi == 0 { break }
                pi -= 1
            }
            start -= 1
        }
        // Score the window, matching forward from its start.
        var score = 0
        pi = 0
        var runBonus = 0
        var previousMatched = false
        var gap = 0
        for i in start...end {
            if pi < p.count && t[i] == p[pi] {
                var bonus = i == 0 || t[i - 1] == " " ? startBonus : isSeparator(t[i - 1]) ? separatorBonus : 0
                if previousMatched {
                    bonus = max(bonus, runBonus, consecutiveBonus)
                } else {
                    runBonus = bonus
                }
                score += match + (pi == 0 ? bonus * firstCharacterMultiplier : bonus)
                if gap > 0 { score -= gapStart + (gap - 1) * gapExtension }
                gap = 0
                previousMatched = true
                pi += 1
            } else {
                gap += 1
                previousMatched = false
            }
        }
        // Among equal matches the shorter text (closer to what was typed) first.
        return score - min(t.count - p.count, 32) / 4
    }

    static func isSeparator(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "-", "_", ".", "@", ":", "/", " ", ",", "[", "]", "(", ")": return true
        default: return false
        }
    }
}
