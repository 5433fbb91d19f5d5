/// How a `TextView` shows lines wider than itself. Nothing is cut silently: a wrapped line continues on the next
/// rows with a marker in the last column of each row that goes on; a clipped line scrolls sideways, with markers at
/// the edges where text is hidden.
public enum LineLayout: Sendable, Equatable {
    /// One row per line, scrolled sideways with `TextViewState.left`; nothing marks what is hidden.
    case clip
    /// One row per line, scrolled sideways; `left` fills the first column when text is hidden to the left, `right`
    /// the last column when text goes on past the right edge.
    case clipMarked(left: String, right: String)
    /// Lines wider than the view continue on the next rows; `marker` fills the last column of a row that goes on.
    case wrap(marker: String)

    /// Wrapping with `↩`, or `\` on a terminal without Unicode.
    public static func wrapped(unicode: Bool) -> LineLayout { .wrap(marker: unicode ? "↩" : "\\") }
    /// Sideways scrolling with `‹` and `›`, or `<` and `>` on a terminal without Unicode.
    public static func scrolled(unicode: Bool) -> LineLayout {
        unicode ? .clipMarked(left: "‹", right: "›") : .clipMarked(left: "<", right: ">")
    }

    /// The width lines wrap at in a view `width` columns wide, nil when lines do not wrap (what `TextViewState`'s
    /// scrolling takes).
    public func wrapWidth(_ width: Int) -> Int? {
        if case .wrap = self { return width }
        return nil
    }
}

/// Where a line breaks into rows when it wraps at `width` columns: a line that fits is one row; a longer one
/// gives each row `width - 1` columns, the last kept for the marker. A wide character is never split.
public enum WrappedLine {
    /// The UTF-8 offsets where each row of `line` starts (the first is 0).
    public static func rowStarts(_ line: String, width: Int) -> [Int] {
        guard width >= 2, DisplayWidth.of(line) > width else { return [0] }
        let room = width - 1
        var starts = [0]
        var column = 0
        var offset = 0
        for character in line {
            let w = DisplayWidth.of(character)
            if column + w > room && column > 0 {
                starts.append(offset)
                column = 0
            }
            column += w
            offset += character.utf8.count
        }
        return starts
    }

    /// How many rows `line` takes at `width` columns (1 when `width` is nil: no wrapping).
    public static func rowCount(_ line: String, width: Int?) -> Int {
        guard let width else { return 1 }
        return rowStarts(line, width: width).count
    }

    /// The row of `line` (wrapped at `width`) that holds the byte at `offset`.
    public static func row(of offset: Int, in line: String, width: Int?) -> Int {
        guard let width else { return 0 }
        let starts = rowStarts(line, width: width)
        return max(0, (starts.lastIndex { $0 <= offset } ?? 0))
    }
}
