/// A run of consecutive cells on one row that changed since the previous frame.
public struct CellRun: Sendable, Equatable {
    /// Column of the first cell.
    public var x: Int
    /// Row.
    public var y: Int
    /// The new cells, left to right; a wide character is followed by its continuation cell.
    public var cells: [Cell]

    /// A run.
    public init(x: Int, y: Int, cells: [Cell]) {
        self.x = x
        self.y = y
        self.cells = cells
    }
}

extension Buffer {
    /// The runs of cells that differ from `previous`; every cell when the sizes differ.
    /// A changed half of a wide character always brings the other half along, so a backend can write each run
    /// as it is without splitting a wide character.
    public func changes(from previous: Buffer) -> [CellRun] {
        let full = previous.size != size
        var runs: [CellRun] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                guard full || differs(from: previous, x: x, y: y) else {
                    x += 1
                    continue
                }
                var start = x
                if self[start, y].isContinuation && start > 0 { start -= 1 }
                var end = x
                while end < width && (full || differs(from: previous, x: end, y: y)) { end += 1 }
                if end < width && self[end, y].isContinuation { end += 1 }
                if let last = runs.last, last.y == y, last.x + last.cells.count > start {
                    start = last.x + last.cells.count
                }
                if start < end {
                    runs.append(CellRun(x: start, y: y, cells: (start..<end).map { self[$0, y] }))
                }
                x = end
            }
        }
        return runs
    }

    private func differs(from previous: Buffer, x: Int, y: Int) -> Bool {
        self[x, y] != previous[x, y]
    }
}
