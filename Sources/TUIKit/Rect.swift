/// A rectangle of cells. Widgets draw inside one and never outside it.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A rectangle; negative sizes count as zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle at the origin covering `size`.
    public init(_ size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    /// One past the rightmost column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }
    /// True when the rectangle has no cells.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// `x,y wxh`.
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    /// True when the cell at (`px`, `py`) lies inside.
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The part shared with `other` (empty when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by `margin` cells on every side.
    public func inset(by margin: Int) -> Rect {
        inset(horizontal: margin, vertical: margin)
    }

    /// The rectangle shrunk by `horizontal` cells left and right and `vertical` cells top and bottom.
    public func inset(horizontal: Int, vertical: Int) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// The single row `row` (relative to the top) of this rectangle.
    public func row(_ row: Int) -> Rect { Rect(x: x, y: y + row, width: width, height: row < height ? 1 : 0) }

    /// A rectangle of `size` centred inside this one (clipped to it).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
