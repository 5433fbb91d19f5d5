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
        let link: String
        switch session.link {
        case .up: link = "connected \(clock(elapsed)) "
        case .lost: link = "disconnected "
        case .reconnecting: link = "reconnecting… "
        }
        let connected = Span(link)
        let shell = Span(session.link == .up ? shellLabel(session.shellMode) : "")
        let identity = identityLabel(session.authUsed, vault: session.loginFromVault, home: state.home)
        StatusBar(left: who, right: headerRight(who: who, identity: identity, shell: shell, connected: connected,
                                                width: areas.header.width),
                  style: Theme.title)
            .render(in: areas.header, buffer: &buffer)

        if let quick = session.quick, let table = quick.table, session.showParsed {
            var list = session.table
            tableView(table).render(in: areas.output, buffer: &buffer, state: &list)
        } else {
            var view = session.view
            let search = session.search
            TextView(layout: ScreenLayout.sessionLines(wrap: state.settings.wrapLines, unicode: state.unicode),
                     highlight: search.flatMap { $0.term.isEmpty ? nil : $0.term }, currentMatch: search?.current)
                .render(session.scrollback, in: areas.output, buffer: &buffer, state: &view)
        }

        var status: [Span] = []
        let spinner = state.unicode ? Spinner.unicode : Spinner.ascii
        if let running = session.running {
            let seconds = max(0, state.now.timeIntervalSince(running.startedAt))
            status.append(Span(" \(spinner.frame(state.tick)) running \(running.command) "
                               + "(\(DurationText.text(seconds, .precise))) · Esc stops it"))
        } else if case .reconnecting(let stage) = session.link {
            status.append(Span(" \(spinner.frame(state.tick)) Reconnecting: \(stage) · Esc cancels"))
        } else if let notice = state.notice {
            status.append(Span(" " + notice))
        } else if case .lost = session.link {
            status.append(Span(" Connection lost · r reconnects (the output stays) · F10 ends the session"))
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
        if let history = session.historySearch {
            cursor = history.render(found: history.found(in: session.history), in: areas.input, buffer: &buffer)
        } else if let search = session.search {
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

    /// The header's right side on a row `width` wide: the identity that logged in, the shell's word and the
    /// connected clock. When the row is short the shell's word gives way first, then the identity is cut (to no
    /// less than 8 columns) or left out; the clock stays.
    static func headerRight(who: [Span], identity: String?, shell: Span, connected: Span, width: Int) -> [Span] {
        let used = who.reduce(0) { $0 + $1.width } + connected.width
        guard let identity, !identity.isEmpty else {
            return used + shell.width < width ? [shell, connected] : [connected]
        }
        let full = DisplayWidth.of(identity) + 2
        if used + full + shell.width < width { return [Span(identity + "  "), shell, connected] }
        if used + full < width { return [Span(identity + "  "), connected] }
        let room = width - used - 1 - 2
        guard room >= 8 else { return [connected] }
        return [Span(DisplayWidth.truncate(identity, to: room) + "  "), connected]
    }

    /// Which identity logged in, short and safe to show: `key ~/.ssh/id_ed25519`, `agent: me@laptop`, `password`,
    /// `password (vault)`, `keyboard-interactive`; nil before it is known. A key under `home` is written with `~`, a
    /// long path elsewhere as its folder and name (`…/keys/id_ed25519`);
    /// an agent key's comment (the agent's text) is sanitised and cut to 32 columns.
    static func identityLabel(_ method: LoginMethod?, vault: Bool, home: String) -> String? {
        switch method {
        case nil: return nil
        case .none?: return "no login needed"
        case .keyFile(let path)?:
            var shown = path
            if !home.isEmpty, home != "/", path.hasPrefix(home + "/") {
                shown = "~" + path.dropFirst(home.count)
            } else if DisplayWidth.of(path) > 32 {
                // A long path outside the home folder: its folder and name are what tell keys apart.
                let parts = path.split(separator: "/")
                if parts.count > 2 { shown = "…/" + parts.suffix(2).joined(separator: "/") }
            }
            return "key " + TextSanitizer.line(shown)
        case .agent(let comment)?:
            let text = TextSanitizer.line(comment)
            return "agent: " + DisplayWidth.truncate(text.isEmpty ? "(no comment)" : text, to: 32)
        case .password?: return vault ? "password (vault)" : "password"
        case .keyboardInteractive?: return vault ? "keyboard-interactive (vault)" : "keyboard-interactive"
        }
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
