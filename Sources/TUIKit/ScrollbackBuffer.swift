/// A bounded store of text lines: output streams in, the oldest lines fall off past `maxLines`, so memory stays
/// flat however long a command runs. Lines are numbered from the first line ever appended (`firstLine` grows
/// as old lines are dropped), so a view's position stays meaningful while the store scrolls.
public struct ScrollbackBuffer: Sendable {
    /// The most lines kept.
    public let maxLines: Int
    /// The longest line kept, in UTF-8 bytes; a longer line is broken (memory stays flat without newlines).
    public let maxLineBytes: Int

    private var ring: [String] = []
    private var head = 0
    /// The last line, still open: what was written since its start or its last `\r`…
    private var open = ""
    /// …over what the line held at that `\r` (written over character by character, as a terminal does).
    private var under = ""
    private var openIsEmpty = true
    /// The number of the oldest line still kept.
    public private(set) var firstLine = 0

    /// A store keeping at most `maxLines` lines of at most `maxLineBytes` bytes each.
    public init(maxLines: Int, maxLineBytes: Int = 16_384) {
        self.maxLines = max(1, maxLines)
        self.maxLineBytes = max(16, maxLineBytes)
    }

    /// Lines kept, counting a last line that has no newline yet.
    public var count: Int { ring.count + (openIsEmpty ? 0 : 1) }
    /// One past the number of the newest line.
    public var endLine: Int { firstLine + count }
    /// True when nothing is kept.
    public var isEmpty: Bool { count == 0 }

    /// Where the kept lines are stored. A full ring that changed keeps its address only when it was changed in
    /// place: the interface's tests check with it that output and keys never copy a session's scrollback.
    package var storageAddress: UInt { ring.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }

    /// The line numbered `number` (between `firstLine` and `endLine`), or nil when it is no longer kept.
    public subscript(number: Int) -> String? {
        let index = number - firstLine
        guard index >= 0, index < count else { return nil }
        if index == ring.count { return openLine }
        return ring[(head + index) % ring.count]
    }

    /// Appends sanitized text; `\n` ends a line, text after the last `\n` stays open for the next chunk. A `\r`
    /// (`TextSanitizer`'s `.overwrite`) goes back to the start of the open line: what follows writes over it, so a
    /// progress bar updates one line.
    public mutating func append(_ text: String) {
        var rest = Substring(text)
        while let end = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" }) {
            addToOpen(rest[..<end])
            if rest[end] == "\n" { closeLine() } else { returnToLineStart() }
            rest = rest[rest.index(after: end)...]
        }
        addToOpen(rest)
    }

    /// Appends one complete line.
    public mutating func appendLine(_ line: String) {
        addToOpen(Substring(line))
        closeLine()
    }

    /// Forgets everything (line numbers keep counting up).
    public mutating func removeAll() {
        firstLine = endLine
        ring.removeAll()
        head = 0
        open = ""
        under = ""
        openIsEmpty = true
    }

    /// The next match of `needle` from `start` (inclusive) going `direction`, wrapping around once.
    /// ASCII letters match either case unless `caseSensitive`.
    public func search(_ needle: String, from start: SearchMatch.Position, direction: SearchDirection,
                       caseSensitive: Bool = false) -> SearchMatch?
    {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, count > 0 else { return nil }
        let total = count
        var line = min(max(start.line, firstLine), endLine - 1)
        for step in 0...total {
            guard let text = self[line] else { break }
            let bytes = Array(text.utf8)
            let found: Int?
            switch direction {
            case .forward:
                let from = step == 0 && line == start.line ? start.byteOffset : 0
                found = Self.find(pattern, in: bytes, from: from, forward: true, caseSensitive: caseSensitive)
            case .backward:
                let before = step == 0 && line == start.line ? start.byteOffset : bytes.count + 1
                found = Self.find(pattern, in: bytes, from: before - 1, forward: false, caseSensitive: caseSensitive)
            }
            if let found { return SearchMatch(line: line, byteRange: found..<(found + pattern.count)) }
            line = direction == .forward ? line + 1 : line - 1
            if line >= endLine { line = firstLine }
            if line < firstLine { line = endLine - 1 }
        }
        return nil
    }

    /// Every match of `needle` in line `number`, as byte ranges (for highlighting).
    public func matches(of needle: String, inLine number: Int, caseSensitive: Bool = false) -> [Range<Int>] {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, let text = self[number] else { return [] }
        let bytes = Array(text.utf8)
        var ranges: [Range<Int>] = []
        var from = 0
        while let found = Self.find(pattern, in: bytes, from: from, forward: true, caseSensitive: caseSensitive) {
            ranges.append(found..<(found + pattern.count))
            from = found + pattern.count
        }
        return ranges
    }

    private mutating func addToOpen(_ piece: Substring) {
        guard !piece.isEmpty else { return }
        open += piece
        openIsEmpty = false
        while open.utf8.count > maxLineBytes {
            // Break at a character boundary at or before the limit.
            var cut = open.utf8.index(open.startIndex, offsetBy: maxLineBytes)
            while cut > open.startIndex && open.utf8[cut] & 0xC0 == 0x80 {
                cut = open.utf8.index(before: cut)
            }
            let tail = String(open[cut...])
            open = String(open[..<cut])
            closeLine()
            open = tail
            openIsEmpty = tail.isEmpty
        }
    }

    /// The open line as shown: what was written since the last `\r` over the rest of what it held before.
    private var openLine: String {
        guard !under.isEmpty else { return open }
        let written = open.count
        return open + under.dropFirst(written)
    }

    private mutating func returnToLineStart() {
        under = openLine
        open = ""
    }

    private mutating func closeLine() {
        let line = openLine
        open = ""
        under = ""
        openIsEmpty = true
        if ring.count < maxLines {
            ring.append(line)
        } else {
            ring[head] = line
            head = (head + 1) % ring.count
            firstLine += 1
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int, forward: Bool,
                             caseSensitive: Bool) -> Int?
    {
        let last = bytes.count - pattern.count
        guard last >= 0 else { return nil }
        func fold(_ b: UInt8) -> UInt8 { caseSensitive || b < 0x41 || b > 0x5A ? b : b | 0x20 }
        let folded = pattern.map(fold)
        let indices: StrideThrough<Int> = forward
            ? stride(from: max(0, from), through: last, by: 1)
            : stride(from: min(from, last), through: 0, by: -1)
        outer: for i in indices {
            for j in 0..<folded.count where fold(bytes[i + j]) != folded[j] { continue outer }
            return i
        }
        return nil
    }
}
