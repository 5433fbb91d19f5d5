/// Where a search found its text in a `ScrollbackBuffer`.
public struct SearchMatch: Sendable, Hashable {
    /// A place in the scrollback to search from.
    public struct Position: Sendable, Hashable {
        /// Line number (as in `ScrollbackBuffer`).
        public var line: Int
        /// Offset in the line's UTF-8 bytes.
        public var byteOffset: Int
        /// A position.
        public init(line: Int, byteOffset: Int) {
            self.line = line
            self.byteOffset = byteOffset
        }
    }

    /// Line number of the match.
    public var line: Int
    /// The matched bytes of the line (UTF-8 offsets).
    public var byteRange: Range<Int>

    /// A match.
    public init(line: Int, byteRange: Range<Int>) {
        self.line = line
        self.byteRange = byteRange
    }

    /// Where to search from for the next match forward.
    public var after: Position { Position(line: line, byteOffset: byteRange.lowerBound + 1) }
    /// Where to search from for the next match backward.
    public var before: Position { Position(line: line, byteOffset: byteRange.lowerBound) }
}
