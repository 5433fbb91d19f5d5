/// Rows in aligned columns under a header, one row selected; its position lives in a `ListState`.
/// Columns are sized by `Layout` constraints and cells are cut by display width with an ellipsis.
public struct TableView: Sendable {
    /// One column: its title, how wide it wants to be and how its text aligns.
    public struct Column: Sendable {
        /// Header text.
        public var title: String
        /// Width constraint (fixed, percent or fill).
        public var width: Layout.Constraint
        /// Alignment of header and cells.
        public var alignment: Alignment
        /// A column.
        public init(_ title: String, width: Layout.Constraint, alignment: Alignment = .left) {
            self.title = title
            self.width = width
            self.alignment = alignment
        }
    }

    /// The columns.
    public var columns: [Column]
    /// The rows: one span per column.
    public var rows: [[Span]]
    /// Style of the header row.
    public var headerStyle: Style
    /// Style laid over the selected row.
    public var highlightStyle: Style
    /// Blank columns between columns.
    public var columnSpacing: Int

    /// A table.
    public init(columns: [Column], rows: [[Span]], headerStyle: Style = Style(attributes: [.bold, .underline]),
                highlightStyle: Style = Style(attributes: .reverse), columnSpacing: Int = 1)
    {
        self.columns = columns
        self.rows = rows
        self.headerStyle = headerStyle
        self.highlightStyle = highlightStyle
        self.columnSpacing = columnSpacing
    }

    /// The column rectangles within `area` (spacing removed), for rendering and for tests.
    public func columnRects(in area: Rect) -> [Rect] {
        guard !columns.isEmpty else { return [] }
        var constraints: [Layout.Constraint] = []
        for (i, column) in columns.enumerated() {
            if i > 0 { constraints.append(.fixed(columnSpacing)) }
            constraints.append(column.width)
        }
        let parts = Layout.split(area, .horizontal, constraints)
        return stride(from: 0, to: parts.count, by: 2).map { parts[$0] }
    }

    /// Draws the header and the visible rows into `area`, scrolling `state` so the selection stays visible.
    public func render(in area: Rect, buffer: inout Buffer, state: inout ListState) {
        render(in: area, buffer: &buffer, state: &state, rowCount: rows.count) { rows[$0] }
    }

    /// The same for a table of `rowCount` rows made on demand: only the rows on screen are asked for, so a list of
    /// ten thousand servers costs one screenful of row-building per frame. `rows` is not used. A row for which
    /// `wholeRow` gives spans (a group's heading) is drawn from them across the whole width, not in columns.
    public func render(in area: Rect, buffer: inout Buffer, state: inout ListState, rowCount: Int,
                       wholeRow: (Int) -> [Span]? = { _ in nil }, row makeRow: (Int) -> [Span]) {
        guard area.height > 0 else { return }
        let rects = columnRects(in: area)
        for (column, rect) in zip(columns, rects) {
            let text = DisplayWidth.fit(column.title, to: rect.width, alignment: column.alignment)
            buffer.setString(text, x: rect.x, y: area.y, style: headerStyle, clip: rect.row(0))
        }
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        state.clamp(count: rowCount)
        state.scrollToSelection(visibleRows: body.height, count: rowCount)
        for row in 0..<body.height {
            let index = state.offset + row
            guard index < rowCount else { break }
            let y = body.y + row
            if let whole = wholeRow(index) {
                buffer.setSpans(whole, x: body.x, y: y, clip: body.row(row))
                if index == state.selected {
                    buffer.setStyle(body.row(row)) { ListView.overlay(highlightStyle, on: $0) }
                }
                continue
            }
            let spans = makeRow(index)
            for (i, rect) in rects.enumerated() where i < spans.count {
                let span = spans[i]
                let text = DisplayWidth.fit(span.text, to: rect.width, alignment: columns[i].alignment)
                buffer.setString(text, x: rect.x, y: y, style: span.style, clip: Rect(x: rect.x, y: y,
                                                                                       width: rect.width, height: 1))
            }
            if index == state.selected {
                buffer.setStyle(body.row(row)) { ListView.overlay(highlightStyle, on: $0) }
            }
        }
    }
}
