/// Splits a rectangle into rows or columns by constraints, the way every screen lays itself out.
///
/// Fixed sizes are served first, then percentages of the whole, then `fill` parts share what is left by weight.
/// When the space is too small the last parts shrink first, so headers and key bars stay visible longest
/// when they come first in the list.
public enum Layout {
    /// Which way to cut.
    public enum Axis: Sendable {
        /// Stack parts top to bottom.
        case vertical
        /// Place parts left to right.
        case horizontal
    }

    /// How big one part wants to be.
    public enum Constraint: Sendable, Hashable {
        /// Exactly this many cells (less if the space runs out).
        case fixed(Int)
        /// This percentage of the whole (rounded down).
        case percent(Int)
        /// A share of what is left, by weight.
        case fill(Int)
    }

    /// The parts of `area` along `axis`, one per constraint, in order, without gaps.
    public static func split(_ area: Rect, _ axis: Axis, _ constraints: [Constraint]) -> [Rect] {
        let total = axis == .vertical ? area.height : area.width
        var sizes = constraints.map { constraint -> Int in
            switch constraint {
            case .fixed(let n): return max(0, n)
            case .percent(let p): return total * min(max(p, 0), 100) / 100
            case .fill: return 0
            }
        }
        var remaining = total - sizes.reduce(0, +)
        if remaining < 0 {
            // Shrink from the end so earlier parts (usually headers) keep their size.
            for i in sizes.indices.reversed() where remaining < 0 {
                let cut = min(sizes[i], -remaining)
                sizes[i] -= cut
                remaining += cut
            }
        }
        let weights = constraints.map { if case .fill(let w) = $0 { return max(w, 1) } else { return 0 } }
        let weightSum = weights.reduce(0, +)
        if weightSum > 0 && remaining > 0 {
            var given = 0
            var lastFill = 0
            for i in sizes.indices where weights[i] > 0 {
                sizes[i] = remaining * weights[i] / weightSum
                given += sizes[i]
                lastFill = i
            }
            sizes[lastFill] += remaining - given
        }
        var rects: [Rect] = []
        var offset = 0
        for size in sizes {
            switch axis {
            case .vertical:
                rects.append(Rect(x: area.x, y: area.y + offset, width: area.width, height: size))
            case .horizontal:
                rects.append(Rect(x: area.x + offset, y: area.y, width: size, height: area.height))
            }
            offset += size
        }
        return rects
    }
}
