/// A size in cells.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// A size; negative values count as zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
    /// `80x24`.
    public var description: String { "\(width)x\(height)" }
}
