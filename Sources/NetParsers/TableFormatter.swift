import TextWidth

/// Lays a `Table` out as aligned text lines: each column as wide as its widest cell by display width, two
/// spaces between columns, no trailing blanks.
public struct TableFormatter: Sendable {
    /// Spaces between columns.
    public var gap: Int

    /// A formatter with the given column gap.
    public init(gap: Int = 2) {
        self.gap = gap
    }

    /// The width of each column (header included) in terminal columns.
    public func widths(_ table: Table) -> [Int] {
        var widths = table.columns.map { DisplayWidth.of($0.title) }
        for row in table.rows {
            for (k, cell) in row.enumerated() where k < widths.count {
                widths[k] = max(widths[k], DisplayWidth.of(cell))
            }
        }
        return widths
    }

    /// The header line followed by one line per row.
    public func lines(_ table: Table) -> [String] {
        let widths = widths(table)
        var result = [line(table.columns.map(\.title), table, widths)]
        result.reserveCapacity(table.rows.count + 1)
        for row in table.rows { result.append(line(row, table, widths)) }
        return result
    }

    /// All lines joined with newlines, ending with one.
    public func render(_ table: Table) -> String {
        lines(table).joined(separator: "\n") + "\n"
    }

    private func line(_ cells: [String], _ table: Table, _ widths: [Int]) -> String {
        var out = ""
        var pendingSpaces = 0
        for (k, column) in table.columns.enumerated() {
            let cell = k < cells.count ? cells[k] : ""
            let pad = widths[k] - DisplayWidth.of(cell)
            if k > 0 { pendingSpaces += gap }
            if column.alignRight { pendingSpaces += pad }
            if !cell.isEmpty {
                out += String(repeating: " ", count: pendingSpaces) + cell
                pendingSpaces = 0
            }
            if !column.alignRight { pendingSpaces += pad }
        }
        return out
    }
}
