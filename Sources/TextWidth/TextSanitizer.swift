/// Turns bytes from a remote machine into text that is safe to show: nothing it returns can move the cursor,
/// change the title, set the clipboard, switch character sets or hide text.
///
/// Fed chunk by chunk (it keeps a character or an escape sequence that is split across chunks for the next
/// chunk); the text it returns uses `\n` as the only line break and contains no control characters (but the
/// lone CRs kept under `carriageReturn: .overwrite`):
/// - ESC is shown as `␛` followed by the rest of the sequence as plain text, e.g. `␛[2J`, `␛]0;title␇`,
///   `␛]52;c;SGVsbG8=␇` (OSC 52 clipboard), `␛P…␛\` (DCS), `␛_…` (APC), `␛7` (single ESC sequences).
/// - C1 controls (U+0080–U+009F) are shown as their 7-bit form: U+009B (CSI) becomes `␛[`, U+009D (OSC) `␛]`.
/// - Other control characters are shown as Unicode control pictures: BEL `␇`, BS `␈`, NUL `␀`, DEL `␡`.
/// - Tab moves to the next multiple of `tabWidth` columns (display width); CR LF and lone LF each end a line;
///   several CRs in a row count as one. A lone CR (a progress bar rewriting its line) ends the line too under
///   `carriageReturn: .lineBreak` (every state stays readable, none is hidden); under `.overwrite` it is kept as
///   the one `\r` of the output, for a reader that returns to the line's start and writes over it
///   (`ScrollbackBuffer.append`), as a terminal does.
/// - Invalid UTF-8 becomes U+FFFD (one per maximal invalid subsequence); bidirectional overrides too, so text
///   cannot be shown reversed.
/// With `policy: .dropStyling`, complete SGR sequences (`ESC [ params m`, colours and bold) are removed instead
/// of shown, which keeps coloured `ls` or `grep` output readable; every other sequence is still shown.
public struct TextSanitizer: Sendable {
    /// What to do with escape sequences.
    public enum EscapePolicy: Sendable {
        /// Show every sequence visibly.
        case visible
        /// Drop SGR (colour/attribute) sequences, show the rest visibly.
        case dropStyling
    }

    /// Tab stop distance in columns.
    public let tabWidth: Int
    /// The escape sequence policy.
    public let policy: EscapePolicy

    /// What a lone CR (one not followed by LF) becomes.
    public enum CarriageReturn: Sendable {
        /// A line break: each state of a progress bar is a line of its own.
        case lineBreak
        /// `\r` in the output: the reader goes back to the start of the line and later text writes over it.
        case overwrite
    }

    /// What a lone CR becomes.
    public let carriageReturn: CarriageReturn

    // UTF-8 decoding state: the scalar built so far, bytes still expected, and the valid range of the next byte.
    private var partial: UInt32 = 0
    private var needed = 0
    private var nextLow: UInt8 = 0x80
    private var nextHigh: UInt8 = 0xBF

    // Escape state, used only to recognise SGR sequences under `.dropStyling`.
    private var sequence: [UInt32] = []
    // Display width of the current line up to `segmentStart` in `out`; the width of what follows is only
    // worked out when a tab needs it (or the output is handed over), which keeps the common path cheap.
    private var column = 0
    private var segmentStart = 0
    private var pendingCR = false
    /// A lone CR under `.overwrite` not written yet: it goes out with the next character shown, so it never ends
    /// the output or stands before a line break (a colour dropped between them would leave it there).
    private var pendingReturn = false
    private var out: [UInt8] = []

    private static let maxStylingLength = 64

    /// A sanitizer with tab stops every `tabWidth` columns.
    public init(tabWidth: Int = 8, policy: EscapePolicy = .visible, carriageReturn: CarriageReturn = .lineBreak) {
        self.tabWidth = max(1, tabWidth)
        self.policy = policy
        self.carriageReturn = carriageReturn
    }

    /// Sanitizes the next chunk of a stream; may hold back an incomplete character or sequence.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { feedBuffer($0) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { feedBuffer($0) } }
        return takeOutput()
    }

    private mutating func feedBuffer(_ bytes: UnsafeBufferPointer<UInt8>) {
        out.reserveCapacity(out.count + bytes.count + bytes.count / 4)
        for byte in bytes {
            // Printable ASCII in plain text, the bulk of any output, goes straight through.
            if byte >= 0x20 && byte < 0x7F && needed == 0 && !pendingCR && !pendingReturn && sequence.isEmpty {
                out.append(byte)
            } else {
                decode(byte)
            }
        }
    }

    /// Sanitizes a whole piece of text at once (state carries over like `feed`).
    public mutating func feed(_ text: String) -> String { feed(text.utf8) }

    /// Ends the stream: an incomplete character becomes U+FFFD, a held sequence and a held CR are emitted.
    public mutating func finish() -> String {
        if needed > 0 { invalidSubsequence() }
        flushSequence()
        if pendingCR || pendingReturn {
            pendingCR = false
            newline()
        }
        return takeOutput()
    }

    /// Sanitizes one complete piece of text (a convenience for one-off strings such as a remote banner).
    public static func sanitize(_ text: String, policy: EscapePolicy = .visible) -> String {
        var sanitizer = TextSanitizer(policy: policy)
        return sanitizer.feed(text) + sanitizer.finish()
    }

    /// One line of remote text for a single field (a table cell, a name in a message): as `sanitize`, but line
    /// breaks and tabs are shown as their pictures (`␊`, `␍`, `␉`) so the text stays on its line. Text without
    /// control characters or bidirectional overrides comes back as it is, without a copy.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsCare) else { return text }
        let pictured = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: return Unicode.Scalar(0x2400 + scalar.value) ?? scalar
            default: return scalar
            }
        }
        return sanitize(String(String.UnicodeScalarView(pictured)))
    }

    /// What `sanitize` changes: controls (C0, DEL, C1) and bidirectional overrides.
    private static func needsCare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private mutating func takeOutput() -> String {
        column += Self.width(of: out[segmentStart...])
        segmentStart = 0
        defer { out.removeAll(keepingCapacity: true) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Display width of sanitized UTF-8 (valid by construction, no control characters but `\n`; a `\r` only ever
    /// starts a segment, so it is never measured).
    private static func width(of bytes: ArraySlice<UInt8>) -> Int {
        var total = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            if lead < 0x80 {
                total += 1
                index += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            var value = UInt32(lead) & (lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : 0x1F)
            for offset in 1..<length where index + offset < bytes.endIndex {
                value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
            }
            if let scalar = Unicode.Scalar(value) { total += DisplayWidth.of(scalar) }
            index += length
        }
        return total
    }

    // MARK: UTF-8

    private mutating func decode(_ byte: UInt8) {
        if needed > 0 {
            if byte >= nextLow && byte <= nextHigh {
                partial = (partial << 6) | UInt32(byte & 0x3F)
                needed -= 1
                nextLow = 0x80
                nextHigh = 0xBF
                if needed == 0 { handle(partial) }
                return
            }
            invalidSubsequence()
        }
        switch byte {
        case 0x00...0x7F:
            handle(UInt32(byte))
        case 0xC2...0xDF:
            start(value: UInt32(byte & 0x1F), needed: 1, low: 0x80, high: 0xBF)
        case 0xE0:
            start(value: 0, needed: 2, low: 0xA0, high: 0xBF)
        case 0xED:
            start(value: 0x0D, needed: 2, low: 0x80, high: 0x9F)
        case 0xE1...0xEF:
            start(value: UInt32(byte & 0x0F), needed: 2, low: 0x80, high: 0xBF)
        case 0xF0:
            start(value: 0, needed: 3, low: 0x90, high: 0xBF)
        case 0xF1...0xF3:
            start(value: UInt32(byte & 0x07), needed: 3, low: 0x80, high: 0xBF)
        case 0xF4:
            start(value: 4, needed: 3, low: 0x80, high: 0x8F)
        default:
            handle(0xFFFD)
        }
    }

    private mutating func start(value: UInt32, needed n: Int, low: UInt8, high: UInt8) {
        partial = value
        needed = n
        nextLow = low
        nextHigh = high
    }

    private mutating func invalidSubsequence() {
        needed = 0
        handle(0xFFFD)
    }

    // MARK: Characters

    private mutating func handle(_ value: UInt32) {
        if (0x80...0x9F).contains(value) {
            // A C1 control is its 7-bit ESC form in disguise; show and parse it as that.
            handle(0x1B)
            handle(ControlPicture.sevenBitFinal(ofC1: value))
            return
        }
        if pendingCR {
            if value == 0x0D { return }
            pendingCR = false
            flushSequence()
            if value == 0x0A || carriageReturn == .lineBreak {
                newline()
            } else {
                returnToLineStart()
            }
            if value == 0x0A { return }
        }
        if policy == .dropStyling && trackStyling(value) { return }
        switch value {
        case 0x0A:
            newline()
        case 0x0D:
            pendingCR = true
        case 0x09:
            writePendingReturn()
            column += Self.width(of: out[segmentStart...])
            let spaces = tabWidth - column % tabWidth
            for _ in 0..<spaces { out.append(0x20) }
            column += spaces
            segmentStart = out.count
        case 0x00..<0x20, 0x7F:
            emit(ControlPicture.of(value))
        case 0x202A...0x202E, 0x2066...0x2069:
            emit(0xFFFD)
        default:
            emit(value)
        }
    }

    /// Under `.dropStyling`: holds `ESC [ params` until its final byte; returns true when `value` was taken.
    private mutating func trackStyling(_ value: UInt32) -> Bool {
        if sequence.count == 1 && value == 0x5B {
            sequence.append(value)
            return true
        }
        if sequence.count >= 2 {
            if (0x30...0x3F).contains(value) && sequence.count < Self.maxStylingLength {
                sequence.append(value)
                return true
            }
            if value == 0x6D {
                sequence.removeAll()
                return true
            }
        }
        // Not (or no longer) an SGR sequence: show what was held, and let an ESC start the next one.
        flushSequence()
        guard value == 0x1B else { return false }
        sequence = [value]
        return true
    }

    private mutating func flushSequence() {
        guard !sequence.isEmpty else { return }
        let held = sequence
        sequence.removeAll()
        for value in held { emit(value == 0x1B ? ControlPicture.escape : value) }
    }

    private mutating func newline() {
        pendingReturn = false
        out.append(0x0A)
        column = 0
        segmentStart = out.count
    }

    /// A lone CR under `.overwrite`: `\r` in the output before the next character shown, and the tab stops count
    /// from the line's start again.
    private mutating func returnToLineStart() {
        segmentStart = out.count
        column = 0
        pendingReturn = true
    }

    private mutating func writePendingReturn() {
        guard pendingReturn else { return }
        pendingReturn = false
        out.append(0x0D)
        segmentStart = out.count
        column = 0
    }

    private mutating func emit(_ value: UInt32) {
        guard Unicode.Scalar(value) != nil else { return }
        writePendingReturn()
        switch value {
        case ..<0x80:
            out.append(UInt8(value))
        case ..<0x800:
            out.append(UInt8(0xC0 | value >> 6))
            out.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | value >> 12))
            out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        default:
            out.append(UInt8(0xF0 | value >> 18))
            out.append(UInt8(0x80 | value >> 12 & 0x3F))
            out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
