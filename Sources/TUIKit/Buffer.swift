/// A grid of cells that widgets draw into; a frame is one `Buffer`, and the terminal backend writes only
/// what differs from the previous frame (`changes(from:)`).
public struct Buffer: Sendable, Equatable {
    /// Columns.
    public private(set) var width: Int
    /// Rows.
    public private(set) var height: Int
    private var cells: [Cell]

    /// A blank buffer of `size`.
    public init(size: Size) {
        width = size.width
        height = size.height
        cells = Array(repeating: .blank, count: width * height)
    }

    /// A blank buffer of `width` x `height`.
    public init(width: Int, height: Int) { self.init(size: Size(width: width, height: height)) }

    /// The buffer's size.
    public var size: Size { Size(width: width, height: height) }
    /// The whole buffer as a rectangle.
    public var area: Rect { Rect(size) }

    /// The cell at column `x`, row `y`; a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < width, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// Puts `cell` at (`x`, `y`) (with its continuation cell when wide), repairing any wide character it overlaps.
    public mutating func set(x: Int, y: Int, cell: Cell) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        // Half a wide character never shows: at the last column it becomes a blank.
        let cell = cell.width == 2 && x + 1 >= width ? Cell.blank(cell.style) : cell
        clearWideNeighbours(x: x, y: y, span: max(1, Int(cell.width)))
        cells[y * width + x] = cell
        if cell.width == 2 && x + 1 < width { cells[y * width + x + 1] = .continuation(cell.style) }
    }

    /// Writes `text` from (`x`, `y`) along the row, clipped to `clip` (the whole buffer by default).
    /// Returns the column after the last cell written. Control characters become U+FFFD, zero-width
    /// characters that start the text are dropped, and a wide character that would cross the clip edge
    /// is not written at all.
    @discardableResult
    public mutating func setString(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let bounds = (clip ?? area).intersection(area)
        guard y >= bounds.y, y < bounds.maxY else { return x }
        var column = x
        for character in text {
            var grapheme = String(character)
            var w = DisplayWidth.of(character)
            if character.unicodeScalars.contains(where: Self.isControl) {
                grapheme = "\u{FFFD}"
                w = 1
            }
            if w == 0 { continue }
            if column + w > bounds.maxX { break }
            if column >= bounds.x {
                set(x: column, y: y, cell: Cell(grapheme, style: style, width: UInt8(w)))
            }
            column += w
        }
        return column
    }

    /// Fills `rect` with `cell` (blank by default).
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { set(x: x, y: y, cell: cell) }
        }
    }

    /// Changes the style of every cell in `rect`, keeping the text (used to highlight a selection or a match).
    public mutating func setStyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let r = rect.intersection(area)
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { cells[y * width + x].style = transform(cells[y * width + x].style) }
        }
    }

    /// Changes the style of every cell in `rect` to `style`.
    public mutating func setStyle(_ rect: Rect, _ style: Style) { setStyle(rect) { _ in style } }

    /// Copies `other` into this buffer with its top-left corner at (`x`, `y`).
    public mutating func blit(_ other: Buffer, x: Int, y: Int) {
        for row in 0..<other.height {
            for column in 0..<other.width {
                let cell = other[column, row]
                if cell.isContinuation { continue }
                set(x: x + column, y: y + row, cell: cell)
            }
        }
    }

    /// The rows as plain text (a continuation cell contributes nothing), for tests and golden screens.
    public func lines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += cells[y * width + x].text }
            return line
        }
    }

    /// A style map for golden screens: one letter per cell (space for plain), then a legend line per letter.
    public func styleMap() -> [String] {
        var letters: [Style: Character] = [:]
        var legend: [String] = []
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var rows: [String] = []
        for y in 0..<height {
            var row = ""
            for x in 0..<width {
                let style = cells[y * width + x].style
                if style == .plain {
                    row.append(" ")
                    continue
                }
                if letters[style] == nil {
                    let letter = letters.count < alphabet.count ? alphabet[letters.count] : "?"
                    letters[style] = letter
                    legend.append("\(letter): \(style.summary)")
                }
                row.append(letters[style]!)
            }
            rows.append(row)
        }
        return rows + ["--"] + legend
    }

    /// Resizes to `size`, keeping what fits (top-left anchored) and blanking the rest.
    public mutating func resize(to size: Size) {
        var next = Buffer(size: size)
        for y in 0..<min(height, size.height) {
            for x in 0..<min(width, size.width) where !cells[y * width + x].isContinuation {
                next.set(x: x, y: y, cell: cells[y * width + x])
            }
        }
        self = next
    }

    private mutating func clearWideNeighbours(x: Int, y: Int, span: Int) {
        let row = y * width
        // Writing over the right half of a wide character: the left half cannot stand alone.
        if cells[row + x].isContinuation && x > 0 { cells[row + x - 1] = .blank(cells[row + x - 1].style) }
        // Writing over (part of) a wide character whose right half lies beyond what we write: blank that half.
        let last = x + span - 1
        if last < width, cells[row + last].width == 2, last + 1 < width {
            cells[row + last + 1] = .blank(cells[row + last + 1].style)
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v)
    }
}
