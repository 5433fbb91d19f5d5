/// Remote bytes on their way to the person's own terminal (`essh exec` on a terminal): text and colours pass as
/// they came; whatever could act on the terminal, reach the clipboard or make the terminal answer is shown instead
/// of obeyed, in `TextSanitizer`'s vocabulary (`␛` for the ESC, then the rest of the sequence as plain text).
///
/// `TextSanitizer` turns bytes into text for a grid of cells; this is a byte filter in front of a real terminal:
/// the output is the input except for what it neutralises, and CR, tabs and line breaks keep their meaning.
///
/// Passes unchanged:
/// - printable ASCII; CR, LF, TAB and BS;
/// - every byte from 0x80 up except a UTF-8 encoded C1 control, so UTF-8 text passes as it is (invalid bytes too:
///   a UTF-8 terminal shows them as U+FFFD and they cannot start a sequence);
/// - CSI sequences with parameters of digits, `;` and `:` only (no `?`, `>`, `<`, `=` marker, no intermediate byte)
///   ending in a final byte `isAllowedFinal` accepts: SGR `ESC [ … m` (colours, bold, underline) and the relative
///   cursor moves and line erase progress bars draw with: `A` `B` `C` `D` (up, down, right, left), `E` `F` (next,
///   previous line), `G` (column), `K` (erase in line). They change what is drawn at the cursor, never the
///   terminal's modes, title, clipboard or scrollback, and the terminal answers none of them.
///
/// Shown instead of obeyed (the terminal never sees the ESC, so it never enters the sequence):
/// - every other ESC sequence: OSC `␛]0;title␇` (title, OSC 52 clipboard, hyperlinks, colours), DCS `␛P…`, APC
///   `␛_…`, PM `␛^…`, SOS `␛X…`, RIS `␛c`, charsets `␛(0`, `␛7`, `␛=`, and the CSI sequences not allowed above:
///   device queries (`␛[6n`, `␛[5n`, `␛[c`, `␛[>c`, `␛[2$p`), window operations (`␛[8t`), modes (`␛[?1049h`,
///   `␛[?1000h`, `␛[?2004h`, `␛[4h`), absolute positioning and screen or scrollback erase (`␛[H`, `␛[2J`,
///   `␛[3J`), scroll regions (`␛[1;5r`), key modes (`␛[>4;1m`);
/// - UTF-8 encoded C1 controls (U+0080–U+009F) as their 7-bit form: U+009B (CSI) `␛[`, U+009D (OSC) `␛]`;
/// - the other C0 controls and DEL as control pictures: BEL `␇`, ENQ `␅`, SO `␎`, SI `␏`, NUL `␀`, DEL `␡`.
///
/// Streaming and bounded: a sequence split across chunks is recognised whole. Only two things are ever held back
/// between chunks: the start of a CSI sequence, until its final byte or `maxSequenceLength` bytes (then it is
/// shown, and the rest follows as text), and a lone 0xC2 byte, until the next byte says whether it starts a C1
/// control. OSC, DCS and the other strings are neutralised at their introducer, so their content is never held,
/// however long or unterminated. Plain text goes through a word-at-a-time scan and is copied in runs.
public struct TerminalGuard: Sendable {
    /// The longest CSI sequence held while waiting for its final byte (as `TextSanitizer` holds an SGR sequence).
    public static let maxSequenceLength = 64

    /// Whether a CSI sequence with plain parameters and this final byte passes: SGR `m`; cursor up, down, right,
    /// left `A` `B` `C` `D`; next and previous line `E` `F`; column `G`; erase in line `K`.
    @inline(__always)
    public static func isAllowedFinal(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x6D, 0x41...0x47, 0x4B: true
        default: false
        }
    }

    /// Whether a CSI parameter byte keeps the sequence plain: digits, `:` and `;` (no private marker `<=>?`).
    @inline(__always)
    private static func isPlainParameter(_ byte: UInt8) -> Bool { (0x30...0x3B).contains(byte) }

    private enum State: Sendable {
        /// Plain text.
        case ground
        /// After an ESC.
        case escape
        /// Inside `ESC [`, the bytes so far in `held`.
        case controlSequence
        /// After a 0xC2 byte, which with 0x80–0x9F encodes a C1 control.
        case leadC2
    }

    private var state = State.ground
    private var held: [UInt8] = []
    /// Whether the held CSI sequence has had only digits, `;` and `:` so far.
    private var heldIsPlain = true

    /// A guard in its initial state (plain text).
    public init() {}

    /// Filters the next chunk of the stream onto the end of `output`; may hold back the start of a sequence that
    /// the next chunk completes.
    public mutating func filter(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        input.withMemoryRebound(to: UInt8.self) { filter(bytes: $0, into: &output) }
    }

    /// Filters the next chunk of the stream and returns what may be shown.
    public mutating func filter<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        let done: Void? = bytes.withContiguousStorageIfAvailable { filter(bytes: $0, into: &output) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { filter(bytes: $0, into: &output) } }
        return output
    }

    /// Ends the stream: whatever is held (an unfinished sequence, a lone 0xC2) is written as it would be shown.
    public mutating func finish(into output: inout [UInt8]) {
        switch state {
        case .ground: break
        case .escape: Self.appendPicture(ControlPicture.escape, to: &output)
        case .controlSequence: showHeld(into: &output)
        case .leadC2: output.append(0xC2)
        }
        state = .ground
    }

    /// Ends the stream and returns what was held, as it would be shown.
    public mutating func finish() -> [UInt8] {
        var output: [UInt8] = []
        finish(into: &output)
        return output
    }

    /// One complete piece of output, filtered (a convenience for output that arrives whole).
    public static func filtered<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var guardian = TerminalGuard()
        return guardian.filter(bytes) + guardian.finish()
    }

    // MARK: The scan

    private mutating func filter(bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count + 16)
        var index = 0
        while index < bytes.count {
            if state == .ground {
                // Plain text and the allowed sequences that lie whole in this chunk are copied as one run.
                var end = Self.endOfPassingRun(bytes, from: index)
                while end < bytes.count, let after = Self.endOfAllowedSequence(bytes, at: end) {
                    end = Self.endOfPassingRun(bytes, from: after)
                }
                if end > index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    index = end
                    if index == bytes.count { break }
                }
            }
            step(bytes[index], into: &output)
            index += 1
        }
    }

    /// Where the run of bytes from `start` that pass unchanged in plain text ends: eight bytes at a time while none
    /// of them is a control, DEL or 0xC2, then byte by byte through the word that has one.
    @inline(__always)
    private static func endOfPassingRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Per byte: below 0x20, equal to 0x7F, equal to 0xC2 (exact "any byte" tests, Hacker's Delight 6-1).
            let below20 = (word &- ones &* 0x20) & ~word & highs
            let del = word ^ (ones &* 0x7F)
            let isDel = (del &- ones) & ~del & highs
            let c2 = word ^ (ones &* 0xC2)
            let isC2 = (c2 &- ones) & ~c2 & highs
            if below20 | isDel | isC2 == 0 {
                index += 8
                continue
            }
            // A line break or a tab most often: look at this word's bytes one by one.
            for offset in 0..<8 where !passes(base[index + offset]) { return index + offset }
            index += 8
        }
        while index < count && passes(base[index]) { index += 1 }
        return index
    }

    /// When an allowed CSI sequence starts at `start` and ends in this chunk: the index after it. Any other case
    /// (another sequence, one split across chunks, one longer than the cap) is left to the state machine, which
    /// passes exactly the same sequences.
    @inline(__always)
    private static func endOfAllowedSequence(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard bytes[start] == 0x1B, start + 2 < bytes.count, bytes[start + 1] == 0x5B else { return nil }
        let limit = min(bytes.count, start + maxSequenceLength)
        var index = start + 2
        while index < limit && isPlainParameter(bytes[index]) { index += 1 }
        guard index < bytes.count, isAllowedFinal(bytes[index]) else { return nil }
        return index + 1
    }

    /// Whether `byte` passes unchanged in plain text without a look at what follows.
    @inline(__always)
    private static func passes(_ byte: UInt8) -> Bool {
        if byte >= 0x20 { return byte != 0x7F && byte != 0xC2 }
        // BS, TAB, LF and CR.
        return (UInt32(0x2700) >> UInt32(byte)) & 1 != 0
    }

    // MARK: The state machine (one byte at a time, for everything but runs of plain text)

    private mutating func step(_ byte: UInt8, into output: inout [UInt8]) {
        switch state {
        case .ground:
            plain(byte, into: &output)
        case .escape:
            if byte == 0x5B {
                held.removeAll(keepingCapacity: true)
                held.append(0x1B)
                held.append(0x5B)
                heldIsPlain = true
                state = .controlSequence
            } else {
                // The ESC is shown; what follows is plain text (another ESC starts a new sequence).
                Self.appendPicture(ControlPicture.escape, to: &output)
                state = .ground
                plain(byte, into: &output)
            }
        case .controlSequence:
            controlSequence(byte, into: &output)
        case .leadC2:
            state = .ground
            if (0x80...0x9F).contains(byte) {
                Self.appendPicture(ControlPicture.escape, to: &output)
                output.append(UInt8(ControlPicture.sevenBitFinal(ofC1: UInt32(byte))))
            } else {
                output.append(0xC2)
                plain(byte, into: &output)
            }
        }
    }

    private mutating func plain(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case 0x1B: state = .escape
        case 0xC2: state = .leadC2
        case _ where Self.passes(byte): output.append(byte)
        default: Self.appendPicture(ControlPicture.of(UInt32(byte)), to: &output)
        }
    }

    private mutating func controlSequence(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case 0x20...0x3F:
            // Parameter (0x30–0x3F) and intermediate (0x20–0x2F) bytes.
            guard held.count < Self.maxSequenceLength else {
                showHeld(into: &output)
                output.append(byte)
                return
            }
            held.append(byte)
            if !Self.isPlainParameter(byte) { heldIsPlain = false }
        case 0x40...0x7E:
            held.append(byte)
            if heldIsPlain && Self.isAllowedFinal(byte) {
                output.append(contentsOf: held)
                state = .ground
            } else {
                showHeld(into: &output)
            }
        default:
            // A control, DEL or a byte from 0x80 breaks the sequence: a terminal would obey a control inside it and
            // carry on, so what was held is shown and the byte is read as plain text.
            showHeld(into: &output)
            plain(byte, into: &output)
        }
    }

    /// Writes the held CSI sequence as it is shown (`␛[…`, all printable) and goes back to plain text.
    private mutating func showHeld(into output: inout [UInt8]) {
        Self.appendPicture(ControlPicture.escape, to: &output)
        output.append(contentsOf: held[1...])
        held.removeAll(keepingCapacity: true)
        state = .ground
    }

    /// A control picture (U+2400–U+2421) in UTF-8: E2 90 xx.
    private static func appendPicture(_ picture: UInt32, to output: inout [UInt8]) {
        output.append(0xE2)
        output.append(UInt8(0x80 | (picture >> 6) & 0x3F))
        output.append(UInt8(0x80 | picture & 0x3F))
    }
}
