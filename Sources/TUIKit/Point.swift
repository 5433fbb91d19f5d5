/// A position on the screen, in cells from the top-left corner.
public struct Point: Sendable, Hashable {
    /// Column.
    public var x: Int
    /// Row.
    public var y: Int
    /// A position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
