/// Where text sits inside a wider column.
public enum Alignment: Sendable, Hashable {
    /// Flush left.
    case left
    /// Flush right (numbers).
    case right
    /// Centred.
    case center
}
