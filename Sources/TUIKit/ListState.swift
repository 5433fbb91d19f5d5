/// Selection and scroll position of a list or a table, kept by the app outside the widget.
public struct ListState: Sendable, Hashable {
    /// Index of the selected row, nil when nothing is selected.
    public var selected: Int?
    /// Index of the first row shown.
    public var offset: Int

    /// A state; selects the first row by default.
    public init(selected: Int? = 0, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Moves the selection one row down (stops at the last row).
    public mutating func selectNext(count: Int) { move(by: 1, count: count) }
    /// Moves the selection one row up (stops at the first row).
    public mutating func selectPrevious(count: Int) { move(by: -1, count: count) }
    /// Moves the selection a page down.
    public mutating func pageDown(count: Int, pageSize: Int) { move(by: max(1, pageSize), count: count) }
    /// Moves the selection a page up.
    public mutating func pageUp(count: Int, pageSize: Int) { move(by: -max(1, pageSize), count: count) }
    /// Selects the first row.
    public mutating func selectFirst(count: Int) { selected = count > 0 ? 0 : nil }
    /// Selects the last row.
    public mutating func selectLast(count: Int) { selected = count > 0 ? count - 1 : nil }

    /// Keeps the selection inside `0..<count` after the rows changed (a filter, a deletion).
    public mutating func clamp(count: Int) {
        guard count > 0 else {
            selected = nil
            offset = 0
            return
        }
        if let s = selected { selected = min(max(s, 0), count - 1) }
        offset = min(max(offset, 0), count - 1)
    }

    /// Adjusts `offset` so the selection is among the `visibleRows` rows shown and no space is wasted at the end.
    public mutating func scrollToSelection(visibleRows: Int, count: Int) {
        guard visibleRows > 0 else { return }
        if let s = selected {
            if s < offset { offset = s }
            if s >= offset + visibleRows { offset = s - visibleRows + 1 }
        }
        offset = max(0, min(offset, count - visibleRows))
    }

    private mutating func move(by delta: Int, count: Int) {
        guard count > 0 else {
            selected = nil
            return
        }
        selected = min(max((selected ?? (delta > 0 ? -1 : count)) + delta, 0), count - 1)
    }
}
