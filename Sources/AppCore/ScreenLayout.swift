import TUIKit

/// Where each part of a screen goes; shared by the views and by `Update` (which needs page sizes).
enum ScreenLayout {
    /// Title bar, table (header row included), the team line (only when linked to a team; else empty), status
    /// line, key bar.
    static func servers(_ size: Size, team: Bool = false) -> (title: Rect, table: Rect, team: Rect, status: Rect,
                                                             keys: Rect) {
        let rows = Layout.split(Rect(size), .vertical,
                                [.fixed(1), .fill(1), .fixed(team ? 1 : 0), .fixed(1), .fixed(1)])
        return (rows[0], rows[1], rows[2], rows[3], rows[4])
    }

    /// Rows of servers visible at once.
    static func serverRows(_ size: Size, team: Bool = false) -> Int {
        max(1, servers(size, team: team).table.height - 1)
    }

    /// Header, output, result line, command line, key bar.
    static func session(_ size: Size) -> (header: Rect, output: Rect, status: Rect, input: Rect, keys: Rect) {
        let rows = Layout.split(Rect(size), .vertical, [.fixed(1), .fill(1), .fixed(1), .fixed(1), .fixed(1)])
        return (rows[0], rows[1], rows[2], rows[3], rows[4])
    }

    static func outputRows(_ size: Size) -> Int { session(size).output.height }

    /// How the session shows long lines (the `session.wrap` setting): wrapped with a marker, or scrolled sideways.
    static func sessionLines(wrap: Bool, unicode: Bool) -> LineLayout {
        wrap ? .wrapped(unicode: unicode) : .scrolled(unicode: unicode)
    }
}
