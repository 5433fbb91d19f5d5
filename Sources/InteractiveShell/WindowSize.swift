import Glibc

/// A terminal's size in character cells, as the kernel knows it (TIOCGWINSZ).
public struct WindowSize: Sendable, Equatable {
    /// Columns (characters per line).
    public var columns: Int
    /// Rows (lines).
    public var rows: Int

    /// A size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The size of the terminal on `descriptor`, or nil when it is not a terminal or reports no size.
    public static func of(_ descriptor: Int32) -> WindowSize? {
        var ws = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return WindowSize(columns: Int(ws.ws_col), rows: Int(ws.ws_row))
    }
}
