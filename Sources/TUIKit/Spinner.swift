/// A one-cell activity indicator: the app advances `tick` on a timer while something runs.
public struct Spinner: Sendable {
    /// The frames, shown in turn.
    public var frames: [String]

    /// A spinner with `frames`.
    public init(frames: [String]) { self.frames = frames.isEmpty ? [" "] : frames }

    /// Braille dots, for UTF-8 terminals.
    public static let unicode = Spinner(frames: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"])
    /// `|/-\`, for anything else.
    public static let ascii = Spinner(frames: ["|", "/", "-", "\\"])

    /// The frame for `tick`.
    public func frame(_ tick: Int) -> String { frames[((tick % frames.count) + frames.count) % frames.count] }

    /// Draws the frame for `tick` followed by `label` on the first row of `area`.
    public func render(tick: Int, label: String, in area: Rect, buffer: inout Buffer, style: Style = .plain) {
        guard !area.isEmpty else { return }
        let x = buffer.setString(frame(tick), x: area.x, y: area.y, style: style, clip: area)
        buffer.setString(" " + DisplayWidth.truncate(label, to: max(0, area.maxX - x - 1)), x: x, y: area.y,
                         clip: area)
    }
}
