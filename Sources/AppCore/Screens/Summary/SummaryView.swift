import TUIKit

/// The end of a session: how long it lasted and what was done.
enum SummaryView {
    static func render(_ summary: SummaryState, unicode: Bool, into buffer: inout Buffer) {
        let areas = Layout.split(buffer.area, .vertical, [.fill(1), .fixed(1)])
        var lines: [String]
        let time = "Time of connection: \(summary.seconds) second\(summary.seconds == 1 ? "" : "s")"
        if let shell = summary.shell {
            // The sentence can be long (a lost connection's reason): wrapped to the screen less the box.
            lines = ["Shell on \(summary.title) ended.", "", time, "Exit status: \(shell.exitStatus ?? "none")", ""]
                + DisplayWidth.wrap(shell.how, to: max(20, min(72, areas[0].width - 4)))
            if shell.sessionEnded && summary.session == nil { lines.append("The session is closed.") }
        } else {
            lines = ["Session with \(summary.title) ended.", "", time, "Commands run: \(summary.commands)"]
            if let reason = summary.reason { lines += ["", "Why it ended: \(reason)"] }
        }
        if summary.unsaved != nil { lines += ["", "Not a saved server: s saves it."] }
        let width = min(areas[0].width, max(lines.map { DisplayWidth.of($0) }.max() ?? 0, 30) + 4)
        let box = areas[0].centered(width: width, height: min(areas[0].height, lines.count + 2))
        let title = summary.shell == nil ? "Session summary" : "Shell summary"
        let inner = Box(title: title, border: .preferred(unicode: unicode)).render(in: box, buffer: &buffer)
        for (i, line) in lines.enumerated() where i < inner.height {
            buffer.setString(line, x: inner.x + 1, y: inner.y + i, style: i == 2 ? Theme.label : .plain, clip: inner)
        }
        KeyBar(table: summary.keys).render(in: areas[1], buffer: &buffer)
    }
}
