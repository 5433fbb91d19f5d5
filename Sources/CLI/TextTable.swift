import Foundation
import TextWidth

/// A plain-text table with padded columns; cells may carry a colour that does not count toward the width.
/// Every cell is sanitised as it is made: names, hosts, banners and errors come from the database, a config file or
/// a server, and none of their escape sequences or control characters may act on the terminal (they are shown as
/// `␛[…`, `␇`); a line break inside a cell becomes a space. Columns are padded by display width (wide characters).
struct TextTable {
    struct Cell {
        var text: String
        var colour: String?

        init(text: String, colour: String? = nil) {
            self.text = TextSanitizer.sanitize(text, policy: .visible).replacingOccurrences(of: "\n", with: " ")
            self.colour = colour
        }
    }

    var headers: [String]
    var rows: [[Cell]] = []

    mutating func add(_ cells: [Cell]) { rows.append(cells) }

    func render(colour: Bool) -> String {
        var widths = headers.map { DisplayWidth.of($0) }
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], DisplayWidth.of(cell.text))
            }
        }
        func line(_ cells: [Cell]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let isLast = i == cells.count - 1
                let padding = isLast ? "" : String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(cell.text)))
                if colour, let code = cell.colour {
                    parts.append("\u{1B}[\(code)m\(cell.text)\u{1B}[0m" + padding)
                } else {
                    parts.append(cell.text + padding)
                }
            }
            return parts.joined(separator: "  ")
        }
        var out = line(headers.map { Cell(text: $0, colour: colour ? "1" : nil) }) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
