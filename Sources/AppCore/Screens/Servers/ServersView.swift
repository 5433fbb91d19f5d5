import Foundation
import Inventory
import Operations
import TUIKit

/// The home screen: saved servers with their last check, filter, progress of a running check.
enum ServersView {
    static func render(_ state: AppState, into buffer: inout Buffer) -> Point? {
        let areas = ScreenLayout.servers(buffer.size, team: state.team != nil)
        let list = state.serverList
        var right: [Span] = []
        if let checking = state.checking { right.append(Span("checking \(checking.done)/\(checking.total) ")) }
        if !state.fleet.marked.isEmpty { right.append(Span("\(state.fleet.marked.count) marked ")) }
        if state.vault.exists == true { right.append(Span(state.vault.unlocked ? "vault unlocked " : "vault locked ")) }
        // The order (o) is marked on its column's title; typed text ranks by best match, which the title says.
        let narrow = buffer.size.width < 70
        let ranked = ServerFilter(list.arrangement.filter).ranks
        let order = state.settings.serverOrder
        var title = " eSSH — Servers (\(list.visible.count)/\(state.servers.count))"
        if ranked {
            title += " · best match first"
        } else if narrow && order == .connected {
            title += " · by last connected"
        }
        StatusBar(left: [Span(title)], right: right, style: Theme.title).render(in: areas.title, buffer: &buffer)
        let arrow = ranked ? "" : (state.unicode ? "↓" : "v")
        func header(_ text: String, _ column: ServerOrder) -> String { order == column ? text + arrow : text }

        let dot = state.unicode ? "●" : "*"
        // Narrow terminals keep what tells servers apart: status, name, address.
        // A marked server (Space, for `x`) shows a check mark in place of its status dot, in the status colour.
        let markSign = state.unicode ? "✓" : "+"
        // A team's shared server (issue 18) has a marker in a narrow column of its own, there only when the list
        // holds shared servers: a personal inventory looks as it always did.
        let teamColumn = list.hasShared
        let teamSign = state.unicode ? "⇄" : "T"
        // Only the rows on screen are built (TableView asks for them), from what `ServerList` derived when the list
        // or the filter changed, so a frame does not cost more with every server saved.
        func row(_ line: Int) -> [Span] {
            let entry: ServerList.Row
            switch list.entries[line] {
            case .group: return []
            case .server(let index): entry = list.rows[index]
            }
            let server = entry.server
            var (style, text) = Theme.status(server.id.flatMap { state.checks[$0] })
            let dot = state.fleet.marked.contains(server.name) ? markSign : dot
            if dot == markSign { style.attributes.insert(.bold) }
            let address = Span(entry.address)
            let shared = teamColumn ? [Span(server.isShared ? teamSign : "", style: Theme.label)] : []
            if narrow {
                return [Span(dot, style: style)] + shared + [Span(server.name), Span(text, style: style), address]
            }
            return [Span(dot, style: style)] + shared + [
                Span(server.name),
                Span(text, style: style),
                Span(server.os.rawValue),
                address,
                Span(server.tags.joined(separator: " ")),
                Span(lastConnected(server.lastConnectedAt, day: entry.date, now: state.now)),
            ]
        }
        // A group's heading: folded or open, the tag, how many servers and how many of them are online.
        func heading(_ line: Int) -> [Span]? {
            guard case .group(let group) = list.entries[line] else { return nil }
            let sign = group.collapsed ? (state.unicode ? "▸" : "+") : (state.unicode ? "▾" : "-")
            let online = group.members.filter { row in
                list.rows[row].server.id.flatMap { state.checks[$0] }?.status == .online
            }.count
            let count = "\(group.members.count) server\(group.members.count == 1 ? "" : "s"), \(online) online"
            let tag = group.tag.isEmpty ? "(no tag)" : TextSanitizer.line(group.tag)
            return [Span(sign + " ", style: Theme.label), Span(tag, style: Theme.label),
                    Span(" · " + count, style: Theme.hint)]
        }
        let wide = buffer.size.width >= 100
        // The name column is as wide as the longest name (within limits); the address takes most of the rest.
        let nameWidth = min(max(list.widestVisibleName, 4), wide ? 32 : 16)
        let name = header("Name", .name), status = header("Status", .status)
        let marker: [TableView.Column] = teamColumn ? [.init("", width: .fixed(1))] : []
        let columns: [TableView.Column] = narrow
            ? [.init("", width: .fixed(1))] + marker + [.init(name, width: .fill(1)), .init(status, width: .fixed(11)),
               .init("Address", width: .fill(1))]
            : [.init("", width: .fixed(1))] + marker + [.init(name, width: .fixed(max(nameWidth, 5))),
               .init(status, width: .fixed(12)), .init("OS", width: .fixed(wide ? 8 : 7)),
               .init("Address", width: .fill(3)), .init("Tags", width: .fill(wide ? 2 : 1)),
               .init(header("Connected", .connected), width: .fixed(wide ? 16 : 10))]
        let table = TableView(columns: columns, rows: [])
        var selection = state.list
        table.render(in: areas.table, buffer: &buffer, state: &selection, rowCount: list.entries.count,
                     wholeRow: heading) { row($0) }
        if state.loaded && state.servers.isEmpty {
            let y = areas.table.y + 2
            buffer.setString("No servers yet. Press a to add one, n to connect to any host.", x: 2, y: y,
                             style: Theme.hint, clip: areas.table)
        } else if state.loaded && list.visible.isEmpty {
            buffer.setString("No server matches “\(state.filter.text)”. Esc clears the filter.", x: 2,
                             y: areas.table.y + 2, style: Theme.hint, clip: areas.table)
        }

        if let team = state.team { teamLine(team, state: state, in: areas.team, into: &buffer) }

        var cursor: Point?
        if state.isFiltering || !state.filter.text.isEmpty {
            let label = "Filter: "
            buffer.fill(areas.status)
            buffer.setString(label, x: 0, y: areas.status.y, style: Theme.label)
            let field = Rect(x: DisplayWidth.of(label), y: areas.status.y,
                             width: max(0, areas.status.width - DisplayWidth.of(label)), height: 1)
            let at = state.filter.render(in: field, buffer: &buffer)
            if state.isFiltering { cursor = at }
        } else if let notice = state.notice {
            buffer.setString(notice, x: 1, y: areas.status.y, clip: areas.status)
        } else if let server = state.selectedServer, !server.note.isEmpty {
            buffer.setString(server.note, x: 1, y: areas.status.y, style: Theme.hint, clip: areas.status)
        }
        KeyBar(table: ServersAction.table).render(in: areas.keys, buffer: &buffer)
        if let install = state.keyInstall {
            KeyInstallView.render(install, unicode: state.unicode, in: areas.table, into: &buffer)
            cursor = nil
        }
        return cursor
    }

    /// The team line: the link's status on the left; on the right, for a selected shared server, the freshest check
    /// another member published, beside this member's own result (`you: offline · online (seen by ana, 2 min ago)`).
    /// When the width is short the status's words come first: the right part loses `you: …`, then goes; the reason
    /// of a failure, last on the left, is what gets cut.
    static func teamLine(_ team: TeamStatus, state: AppState, in area: Rect, into buffer: inout Buffer) {
        guard area.height > 0 else { return }
        var style = Theme.hint
        if team.problem != nil || team.conflicts > 0 { style = Style(fg: .yellow) }
        let line = TextSanitizer.line(team.line(now: state.now))
        let core = TextSanitizer.line(team.line(now: state.now, withReason: false))
        var right: [Span] = []
        if let server = state.selectedServer, server.isShared, let seen = team.seenBy(uid: server.uid, now: state.now) {
            let mine = Theme.status(server.id.flatMap { state.checks[$0] }).1
            let seenSpan = Span(TextSanitizer.line(seen) + " ", style: Theme.label)
            let room = area.width - 1 - DisplayWidth.of(core) - 2
            for candidate in [[Span("you: \(mine) · ", style: Theme.hint), seenSpan], [seenSpan]]
            where candidate.reduce(0, { $0 + DisplayWidth.of($1.text) }) <= room {
                right = candidate
                break
            }
        }
        let rightWidth = right.reduce(0) { $0 + DisplayWidth.of($1.text) }
        buffer.fill(area)
        let leftWidth = max(0, area.width - rightWidth - (right.isEmpty ? 0 : 1))
        buffer.setString(DisplayWidth.fit(line, to: max(0, leftWidth - 1)), x: area.x + 1, y: area.y, style: style,
                         clip: Rect(x: area.x, y: area.y, width: leftWidth, height: 1))
        var x = area.maxX - rightWidth
        for span in right {
            x = buffer.setString(span.text, x: x, y: area.y, style: span.style, clip: area)
        }
    }

    /// `5 min ago`, `yesterday`, a date (`day`, derived once by `ServerList`); `never`.
    static func lastConnected(_ date: Date?, day: String?, now: Date) -> String {
        guard let date else { return "never" }
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86_400 { return "\(seconds / 3600) h ago" }
        if seconds < 7 * 86_400 { return "\(seconds / 86_400) d ago" }
        return day ?? ServerList.day(date)
    }
}
