/// How many terminal columns text takes, like `wcwidth(3)` but the same on every platform.
///
/// Wide: the East Asian Wide and Fullwidth ranges (CJK, Hangul syllables, fullwidth forms) and characters
/// with emoji presentation. Zero: combining and enclosing marks, format characters (zero-width space, joiners)
/// and Hangul medial/final jamo. Everything else printable is one column. Control characters never reach the
/// screen (the sanitizer and `Buffer` replace them), so they have no width here.
public enum DisplayWidth {
    /// Columns of one Unicode scalar: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return v == 0xAD || v >= 0x20 ? 1 : 0 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(v) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Columns of one grapheme: the width of its first non-zero-width scalar, or 2 when an emoji
    /// presentation selector (U+FE0F) turns a text symbol into an emoji.
    public static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            if width == 0 {
                width = of(scalar)
            } else if scalar.value == 0xFE0F && width == 1 && character.unicodeScalars.first!.properties.isEmoji {
                width = 2
            }
        }
        return width
    }

    /// Columns of a whole string.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The longest prefix of `text` that fits in `width` columns, with `ellipsis` at the end when cut.
    /// A wide character never straddles the edge.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let room = width - of(ellipsis)
        guard room >= 0 else { return prefix(text, fitting: width) }
        return prefix(text, fitting: room) + ellipsis
    }

    /// The longest prefix of `text` that fits in `width` columns.
    public static func prefix(_ text: String, fitting width: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let w = of(character)
            if used + w > width { break }
            used += w
            result.append(character)
        }
        return result
    }

    /// `text` cut or padded with spaces to exactly `width` columns, aligned as asked.
    public static func fit(_ text: String, to width: Int, alignment: Alignment = .left, ellipsis: String = "…")
        -> String
    {
        let cut = truncate(text, to: width, ellipsis: ellipsis)
        let pad = max(0, width - of(cut))
        switch alignment {
        case .left: return cut + String(repeating: " ", count: pad)
        case .right: return String(repeating: " ", count: pad) + cut
        case .center:
            return String(repeating: " ", count: pad / 2) + cut + String(repeating: " ", count: pad - pad / 2)
        }
    }

    /// Breaks `text` into lines of at most `width` columns, at spaces where possible.
    public static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = String(word)
                var wordWidth = of(word)
                let gap = line.isEmpty ? 0 : 1
                if lineWidth + gap + wordWidth <= width {
                    if gap == 1 { line += " " }
                    line += word
                    lineWidth += gap + wordWidth
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                while wordWidth > width && word.count > 1 {
                    // A character wider than the whole line still takes a line of its own (clipped when drawn).
                    var head = prefix(word, fitting: width)
                    if head.isEmpty { head = String(word.prefix(1)) }
                    lines.append(head)
                    word = String(word.dropFirst(head.count))
                    wordWidth = of(word)
                }
                line = word
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if v < range.lowerBound {
                high = mid - 1
            } else if v > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    // East Asian Wide (W) and Fullwidth (F) ranges outside the emoji set, sorted.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
