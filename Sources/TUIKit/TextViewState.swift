/// Scroll position of a `TextView`, kept by the app: which line is at the top, how far it is scrolled
/// sideways, and whether it follows new output.
public struct TextViewState: Sendable, Hashable {
    /// Number of the line at the top of the view (as in `ScrollbackBuffer`).
    public var top: Int
    /// Columns scrolled to the right.
    public var left: Int
    /// Stick to the newest line as output arrives (cleared by scrolling up, set again at the bottom).
    public var follow: Bool

    /// A state following the output.
    public init(top: Int = 0, left: Int = 0, follow: Bool = true) {
        self.top = top
        self.left = left
        self.follow = follow
    }

    /// Scrolls by `lines` (negative: up), keeping within the scrollback, following again at the bottom.
    public mutating func scroll(by lines: Int, in scrollback: ScrollbackBuffer, height: Int) {
        let bottom = bottomTop(scrollback, height: height)
        if follow { top = bottom }
        top = min(max(top + lines, scrollback.firstLine), bottom)
        follow = top >= bottom
    }

    /// Jumps to the oldest line.
    public mutating func scrollToTop(in scrollback: ScrollbackBuffer) {
        top = scrollback.firstLine
        follow = false
    }

    /// Jumps to the newest output and follows it.
    public mutating func scrollToBottom(in scrollback: ScrollbackBuffer, height: Int) {
        top = bottomTop(scrollback, height: height)
        follow = true
    }

    /// Scrolls so line `number` is visible (a search match).
    public mutating func reveal(line number: Int, in scrollback: ScrollbackBuffer, height: Int) {
        if follow { top = bottomTop(scrollback, height: height) }
        if number < top || number >= top + height {
            top = max(scrollback.firstLine, number - height / 2)
        }
        follow = false
        top = min(top, bottomTop(scrollback, height: height))
    }

    /// The top line that shows the newest output at the bottom.
    func bottomTop(_ scrollback: ScrollbackBuffer, height: Int) -> Int {
        max(scrollback.firstLine, scrollback.endLine - max(1, height))
    }
}
