import Basics
import Foundation
import NetParsers
import SSH
import TUIKit

/// A session: header (who, OS, connected time), output or a parsed table, the last result, the command line.
enum SessionView {
    static func render(_ session: SessionState, _ state: AppState, into buffer: inout Buffer) -> Point? {
        let areas = ScreenLayout.session(buffer.size)
        let elapsed = max(0, Int(state.now.timeIntervalSince(session.connectedAt)))
        let who = [Span(" \(session.title)", style: Style(attributes: .bold)), Span("  \(session.os)")]
        let connected = Span("connected \(clock(elapsed)) ")
        let shell = Span(shellLabel(session.shellMode))
        // The shell's word gives way first when the row is short.
        let fits = (who + [shell, connected]).reduce(0) { $0 + $1.width } < areas.header.width
        StatusBar(left: who, right: fits ? [shell, connected] : [connected], style: Theme.title)
            .render(in: areas.header, buffer: &buffer)

        if let quick = session.quick, let table = quick.table, session.showParsed {
            var list = session.table
            tableView(table).render(in: areas.output, buffer: &buffer, state: &list)
        } else {
            var view = session.view
            let search = session.search
            TextView(highlight: search.flatMap { $0.term.isEmpty ? nil : $0.term }, currentMatch: search?.current)
                .render(session.scrollback, in: areas.output, buffer: &buffer, state: &view)
        }

        var status: [Span] = []
        let spinner = state.unicode ? Spinner.unicode : Spinner.ascii
        if let running = session.running {
            let seconds = max(0, state.now.timeIntervalSince(running.startedAt))
            status.append(Span(" \(spinner.frame(state.tick)) running \(running.command) "
                               + "(\(DurationText.text(seconds, .precise))) · Esc stops it"))
        } else if let notice = state.notice {
            status.append(Span(" " + notice))
        } else if let result = session.lastResult {
            status.append(Span(" " + result))
        }
        var right: [Span] = []
        if session.quick?.table != nil {
            right.append(Span(session.showParsed ? "table (F5 raw) " : "raw (F5 table) "))
        }
        else if !session.view.follow { right.append(Span("scrolled (End: newest) ")) }
        StatusBar(left: status, right: right, style: Style(attributes: .dim)).render(in: areas.status, buffer: &buffer)

        let cursor: Point?
        if let search = session.search {
            cursor = searchBar(search, session: session, in: areas.input, buffer: &buffer)
        } else {
            let prompt = "> "
            buffer.setString(prompt, x: areas.input.x, y: areas.input.y, style: Theme.label, clip: areas.input)
            let field = Rect(x: areas.input.x + 2, y: areas.input.y, width: max(0, areas.input.width - 2), height: 1)
            cursor = session.input.render(in: field, buffer: &buffer)
        }
        KeyBar(table: SessionAction.table).render(in: areas.keys, buffer: &buffer)
        return cursor
    }

    /// The header's word on how commands run: one shell that lasts, or a shell per command.
    static func shellLabel(_ mode: ShellMode?) -> String {
        switch mode {
        case nil: return ""
        case .persistent: return "shell: persistent  "
        case .onePerCommand: return "shell: one per command  "
        }
    }

    /// `Find: term` with where the match is, in place of the command line.
    static func searchBar(_ search: SessionSearch, session: SessionState, in area: Rect, buffer: inout Buffer)
        -> Point?
    {
        let label = "Find: "
        buffer.setString(label, x: area.x, y: area.y, style: Theme.label, clip: area)
        let note: String
        if search.notFound {
            note = "not found"
        } else if let current = search.current {
            let below = session.scrollback.endLine - 1 - current.line
            note = below == 0 ? "last line" : "\(below) line\(below == 1 ? "" : "s") up"
        } else {
            note = "Enter finds"
        }
        let hint = " \(note) · ^P/^N older/newer · Esc closes "
        let hintWidth = min(DisplayWidth.of(hint), max(0, area.width - label.count - 10))
        let hintX = area.maxX - hintWidth
        buffer.setString(hint, x: hintX, y: area.y, style: Style(attributes: .dim),
                         clip: Rect(x: hintX, y: area.y, width: hintWidth, height: 1))
        let field = Rect(x: area.x + label.count, y: area.y, width: max(0, hintX - area.x - label.count), height: 1)
        return search.input.render(in: field, buffer: &buffer)
    }

    static func tableView(_ table: Table) -> TableView {
        // The same widths `essh parse` and `essh net` print with, capped so one long cell cannot push the rest away.
        let widths = TableFormatter().widths(table)
        let columns = zip(table.columns, widths).map { column, width in
            TableView.Column(column.title, width: .fixed(min(width, 40)), alignment: column.alignRight ? .right : .left)
        }
        let rows: [[Span]] = table.rows.map { row in row.map { Span($0) } }
        return TableView(columns: columns, rows: rows)
    }

    /// `00:01:23`.
    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }
}
