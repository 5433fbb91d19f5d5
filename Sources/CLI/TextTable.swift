import Foundation

/// A plain-text table with padded columns; cells may carry a colour that does not count toward the width.
struct TextTable {
    struct Cell {
        var text: String
        var colour: String?
    }

    var headers: [String]
    var rows: [[Cell]] = []

    mutating func add(_ cells: [Cell]) { rows.append(cells) }

    func render(colour: Bool) -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.text.count) }
        }
        func line(_ cells: [Cell]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let isLast = i == cells.count - 1
                let padded = isLast ? cell.text : cell.text.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                if colour, let code = cell.colour {
                    let padding = String(repeating: " ", count: padded.count - cell.text.count)
                    parts.append("\u{1B}[\(code)m\(cell.text)\u{1B}[0m" + padding)
                } else {
                    parts.append(padded)
                }
            }
            return parts.joined(separator: "  ")
        }
        var out = line(headers.map { Cell(text: $0, colour: colour ? "1" : nil) }) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
