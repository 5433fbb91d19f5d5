/// Scroll position of a `TextView`, kept by the app: which line is at the top (and, when lines wrap, which of its
/// rows), how far it is scrolled sideways, and whether it follows new output. Every function that moves it takes
/// `wrapWidth`: the width lines wrap at (`LineLayout.wrapWidth`), nil when they do not wrap; a position is in rows.
public struct TextViewState: Sendable, Hashable {
    /// Number of the line at the top of the view (as in `ScrollbackBuffer`).
    public var top: Int
    /// The row of the top line shown first, when lines wrap (0 otherwise).
    public var topRow: Int
    /// Columns scrolled to the right.
    public var left: Int
    /// Stick to the newest line as output arrives (cleared by scrolling up, set again at the bottom).
    public var follow: Bool

    /// A state following the output.
    public init(top: Int = 0, left: Int = 0, follow: Bool = true) {
        self.top = top
        topRow = 0
        self.left = left
        self.follow = follow
    }

    /// Scrolls by `lines` rows (negative: up), keeping within the scrollback, following again at the bottom.
    public mutating func scroll(by lines: Int, in scrollback: ScrollbackBuffer, height: Int, wrapWidth: Int? = nil) {
        let bottom = bottomPosition(scrollback, height: height, wrapWidth: wrapWidth)
        if follow { (top, topRow) = bottom }
        clamp(scrollback, wrapWidth: wrapWidth)
        guard wrapWidth != nil else {
            top = min(max(top + lines, scrollback.firstLine), bottom.0)
            follow = top >= bottom.0
            return
        }
        var position = (line: top, row: topRow)
        if lines < 0 {
            for _ in 0..<(-lines) {
                if position.row > 0 {
                    position.row -= 1
                } else if position.line > scrollback.firstLine {
                    position.line -= 1
                    position.row = rows(scrollback, position.line, wrapWidth) - 1
                } else {
                    break
                }
            }
        } else {
            for _ in 0..<lines {
                if (position.line, position.row) >= bottom { break }
                if position.row + 1 < rows(scrollback, position.line, wrapWidth) {
                    position.row += 1
                } else {
                    position = (position.line + 1, 0)
                }
            }
        }
        if (position.line, position.row) > bottom { position = bottom }
        (top, topRow) = position
        follow = (top, topRow) >= bottom
    }

    /// Jumps to the oldest line.
    public mutating func scrollToTop(in scrollback: ScrollbackBuffer) {
        top = scrollback.firstLine
        topRow = 0
        follow = false
    }

    /// Jumps to the newest output and follows it.
    public mutating func scrollToBottom(in scrollback: ScrollbackBuffer, height: Int, wrapWidth: Int? = nil) {
        (top, topRow) = bottomPosition(scrollback, height: height, wrapWidth: wrapWidth)
        follow = true
    }

    /// Scrolls so row `row` of line `number` is visible (a search match), about the middle of the view when it
    /// was not.
    public mutating func reveal(line number: Int, row: Int = 0, in scrollback: ScrollbackBuffer, height: Int,
                                wrapWidth: Int? = nil) {
        let bottom = bottomPosition(scrollback, height: height, wrapWidth: wrapWidth)
        if follow { (top, topRow) = bottom }
        clamp(scrollback, wrapWidth: wrapWidth)
        let target = (line: max(scrollback.firstLine, number), row: max(0, row))
        if !isVisible(target, scrollback, height: height, wrapWidth: wrapWidth) {
            (top, topRow) = target
            follow = false
            scroll(by: -(height / 2), in: scrollback, height: height, wrapWidth: wrapWidth)
        }
        follow = false
        if (top, topRow) > bottom { (top, topRow) = bottom }
    }

    /// The top line that shows the newest output at the bottom (its first row, without wrapping).
    func bottomTop(_ scrollback: ScrollbackBuffer, height: Int) -> Int {
        max(scrollback.firstLine, scrollback.endLine - max(1, height))
    }

    /// The top position (line, row) that shows the newest output at the bottom.
    func bottomPosition(_ scrollback: ScrollbackBuffer, height: Int, wrapWidth: Int?) -> (Int, Int) {
        guard wrapWidth != nil else { return (bottomTop(scrollback, height: height), 0) }
        var left = max(1, height)
        var line = scrollback.endLine - 1
        while line >= scrollback.firstLine {
            let count = rows(scrollback, line, wrapWidth)
            if count >= left { return (line, count - left) }
            left -= count
            line -= 1
        }
        return (scrollback.firstLine, 0)
    }

    /// Keeps the top inside what the scrollback still holds (old lines fall off).
    mutating func clamp(_ scrollback: ScrollbackBuffer, wrapWidth: Int?) {
        if top < scrollback.firstLine {
            top = scrollback.firstLine
            topRow = 0
        }
        topRow = min(topRow, max(0, rows(scrollback, top, wrapWidth) - 1))
    }

    private func isVisible(_ target: (line: Int, row: Int), _ scrollback: ScrollbackBuffer, height: Int,
                           wrapWidth: Int?) -> Bool {
        guard (target.line, target.row) >= (top, topRow) else { return false }
        var used = 0
        var position = (line: top, row: topRow)
        while used < height {
            if position == target { return true }
            used += 1
            if position.row + 1 < rows(scrollback, position.line, wrapWidth) {
                position.row += 1
            } else {
                position = (position.line + 1, 0)
            }
            if position.line >= scrollback.endLine { return false }
        }
        return false
    }

    private func rows(_ scrollback: ScrollbackBuffer, _ line: Int, _ wrapWidth: Int?) -> Int {
        guard wrapWidth != nil, let text = scrollback[line] else { return 1 }
        return WrappedLine.rowCount(text, width: wrapWidth)
    }
}
