/// A centred box with a message and a row of buttons (confirmations, host key questions, errors). A message taller
/// than the box scrolls (`top`, with `↑ more` / `↓ more` in the border); buttons too wide for the box lose their
/// brackets, then their padding, before anything is cut.
public struct Dialog: Sendable {
    /// Title in the border.
    public var title: String
    /// The message; wrapped to the dialog's width at spaces.
    public var message: String
    /// Button labels, left to right.
    public var buttons: [String]
    /// Index of the focused button.
    public var selected: Int
    /// Border characters.
    public var border: Border
    /// Style of the focused button.
    public var selectedStyle: Style
    /// The first line of the message shown (clamped to what there is to scroll).
    public var top: Int

    /// A dialog.
    public init(title: String, message: String, buttons: [String], selected: Int = 0, border: Border = .unicode,
                selectedStyle: Style = Style(attributes: [.reverse, .bold]), top: Int = 0)
    {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.selected = selected
        self.border = border
        self.selectedStyle = selectedStyle
        self.top = top
    }

    /// Where everything goes in `area`: the box, the message's lines and how many of them show at once.
    public struct Layout: Sendable, Equatable {
        /// The dialog's box.
        public var frame: Rect
        /// The message wrapped to the box's width.
        public var lines: [String]
        /// Message lines shown at once.
        public var rows: Int
        /// The largest useful `top`.
        public var lastTop: Int { max(0, lines.count - rows) }
    }

    /// The layout of the dialog centred in `area`.
    public func layout(in area: Rect) -> Layout {
        let buttonsWidth = Self.buttonRow(buttons, fitting: .max).width
        let longestLine = message.split(separator: "\n").map { DisplayWidth.of(String($0)) }.max() ?? 0
        let wanted = max(longestLine, buttonsWidth, DisplayWidth.of(title) + 2, 20) + 4
        let width = min(wanted, area.width)
        let lines = DisplayWidth.wrap(message, to: max(1, width - 4))
        // Below the message: a blank line and the buttons.
        let below = buttons.isEmpty ? 0 : 2
        let height = min(lines.count + below + 2, area.height)
        let frame = area.centered(width: width, height: height)
        let rows = max(0, height - 2 - below)
        return Layout(frame: frame, lines: lines, rows: rows)
    }

    /// Draws the dialog centred in `area`, clearing what is behind it; returns the dialog's rectangle.
    @discardableResult
    public func render(in area: Rect, buffer: inout Buffer) -> Rect {
        let layout = layout(in: area)
        let frame = layout.frame
        buffer.fill(frame)
        let inner = Box(title: title, border: border).render(in: frame, buffer: &buffer)
        let text = Rect(x: inner.x + 1, y: inner.y, width: max(0, inner.width - 2),
                        height: min(layout.rows, inner.height))
        let first = min(max(0, top), layout.lastTop)
        for (i, line) in layout.lines.dropFirst(first).enumerated() where i < text.height {
            buffer.setString(line, x: text.x, y: text.y + i, clip: text)
        }
        if first > 0 {
            buffer.setString(border == .ascii ? " ^ more " : " ↑ more ", x: frame.maxX - 10, y: frame.y, clip: frame)
        }
        if first + layout.rows < layout.lines.count {
            let y = layout.rows > 0 ? text.y + text.height : frame.maxY - 1
            let marker = border == .ascii ? " v more " : " ↓ more "
            buffer.setString(marker, x: max(inner.x, inner.maxX - 9), y: min(y, frame.maxY - 1), clip: frame)
        }
        if !buttons.isEmpty && inner.height >= 1 {
            let row = Self.buttonRow(buttons, fitting: inner.width)
            var x = inner.x + max(0, (inner.width - row.width) / 2)
            let y = inner.maxY - 1
            for (i, label) in row.labels.enumerated() {
                x = buffer.setString(label, x: x, y: y, style: i == selected ? selectedStyle : .plain, clip: inner)
                    + row.gap
            }
        }
        return frame
    }

    /// The buttons as drawn within `width` columns: `[ Yes ]  [ No ]` when it fits, else ` Yes   No ` (the
    /// highlight still shows the chosen one), else `Yes No`.
    static func buttonRow(_ buttons: [String], fitting width: Int) -> (labels: [String], gap: Int, width: Int) {
        let styles: [(wrap: (String) -> String, gap: Int)] = [({ "[ \($0) ]" }, 2), ({ " \($0) " }, 1), ({ $0 }, 1)]
        var row: (labels: [String], gap: Int, width: Int) = ([], 0, 0)
        for style in styles {
            let labels = buttons.map(style.wrap)
            let total = labels.reduce(0) { $0 + DisplayWidth.of($1) } + max(0, labels.count - 1) * style.gap
            row = (labels, style.gap, total)
            if total <= width { break }
        }
        return row
    }
}
