import Basics
import Foundation
import Operations
import TUIKit

/// The Tunnels screen: every saved and running tunnel with its server, forward, state, open connections, bytes each
/// way and rate; the add / edit form over it when open.
enum TunnelsView {
    static func render(_ screen: TunnelsState, _ state: AppState, into buffer: inout Buffer) -> Point? {
        let size = buffer.size
        let title = Rect(x: 0, y: 0, width: size.width, height: 1)
        let keys = Rect(x: 0, y: max(0, size.height - 1), width: size.width, height: 1)
        let status = Rect(x: 0, y: max(0, size.height - 2), width: size.width, height: 1)
        let table = Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 3))
        let rows = state.tunnelRows
        let running = rows.filter { $0.status.state.isRunning }.count
        StatusBar(left: [Span(" eSSH — Tunnels", style: Style(attributes: .bold))],
                  right: [Span(" \(running) running · \(rows.count) saved ")], style: Theme.title)
            .render(in: title, buffer: &buffer)
        let cells: [[Span]] = rows.map { row in
            let s = row.status
            return [
                Span(s.id.server + (row.autostart ? " *" : "")),
                Span(s.id.forward),
                Span(stateText(s), style: stateStyle(s.state)),
                Span(s.state.isRunning ? String(s.openConnections) : ""),
                Span(ByteCountText.decimal(s.bytesOut)),
                Span(ByteCountText.decimal(s.bytesIn)),
                Span(s.state == .up ? ByteCountText.rate(s.rateOut + s.rateIn) : ""),
            ].map { Span(TextSanitizer.line($0.text), style: $0.style) }
        }
        let serverWidth = min(max(rows.map { DisplayWidth.of($0.status.id.server) + 2 }.max() ?? 6, 6), 24)
        let forwardWidth = min(max(rows.map { DisplayWidth.of($0.status.id.forward) }.max() ?? 7, 7), 36)
        var list = screen.list
        TableView(columns: [
            .init("Server", width: .fixed(serverWidth)), .init("Forward", width: .fixed(forwardWidth)),
            .init("State", width: .fill(1)), .init("Conns", width: .fixed(5), alignment: .right),
            .init("Out", width: .fixed(9), alignment: .right), .init("In", width: .fixed(9), alignment: .right),
            .init("Rate", width: .fixed(11), alignment: .right),
        ], rows: cells).render(in: table, buffer: &buffer, state: &list)
        if rows.isEmpty {
            buffer.setString("No saved tunnels. a adds one (L:5432:localhost:5432 through a server), or: essh servers "
                             + "edit NAME --forward L:…", x: 1, y: min(3, table.maxY - 1), style: Theme.hint,
                             clip: table)
        }
        let line = state.notice ?? selectedLine(rows, screen.list.selected)
        StatusBar(left: [Span(" " + TextSanitizer.line(line))], right: [], style: Style(attributes: .dim))
            .render(in: status, buffer: &buffer)
        if let editor = screen.editor {
            KeyBar(table: TunnelEditorAction.table).render(in: keys, buffer: &buffer)
            return renderEditor(editor, unicode: state.unicode, into: &buffer)
        }
        KeyBar(table: TunnelsAction.table).render(in: keys, buffer: &buffer)
        return nil
    }

    /// The state as the table says it; a failed or reconnecting tunnel's reason goes to the status line.
    static func stateText(_ status: TunnelStatus) -> String {
        switch status.state {
        case .failed: return "failed"
        case .up: return status.listening.map { "up, on \($0)" } ?? "up"
        default: return status.state.text
        }
    }

    static func stateStyle(_ state: TunnelStatus.State) -> Style {
        switch state {
        case .up: return Style(fg: .green)
        case .failed: return Theme.error
        case .reconnecting, .starting: return Style(fg: .yellow)
        case .stopped: return Theme.hint
        }
    }

    /// The selected tunnel's whole state, with the reason (the table has no room for it).
    static func selectedLine(_ rows: [TunnelRow], _ selected: Int?) -> String {
        guard let selected, rows.indices.contains(selected) else { return "u: back to servers with Esc" }
        let s = rows[selected].status
        var line = "\(s.id.server) \(s.id.forward): \(s.state.text)"
        if case .reconnecting(_, _, let reason) = s.state { line += " — \(reason)" }
        if s.connections > 0 { line += " · \(CountText.text(s.connections, "connection")) so far" }
        if !rows[selected].saved { line += " · no longer saved" }
        return line
    }

    /// The add / edit form: two fields in a box in the middle.
    static func renderEditor(_ editor: TunnelEditor, unicode: Bool, into buffer: inout Buffer) -> Point? {
        let area = Rect(buffer.size).centered(width: min(buffer.size.width, 66), height: 8)
        buffer.fill(area)
        let inner = Box(title: editor.original == nil ? "Add a tunnel" : "Edit a tunnel",
                        border: Border.preferred(unicode: unicode))
            .render(in: area, buffer: &buffer).inset(horizontal: 1, vertical: 0)
        guard inner.height >= 5 else { return nil }
        let labelWidth = 9
        var cursor: Point?
        for (row, (label, field)) in [("Server", editor.server), ("Forward", editor.forward)].enumerated() {
            let y = inner.y + row * 2
            buffer.setString(label, x: inner.x, y: y, style: Theme.label, clip: inner)
            let fieldArea = Rect(x: inner.x + labelWidth, y: y, width: max(1, inner.width - labelWidth), height: 1)
            let focused = editor.focus == row
            let at = field.render(in: fieldArea, buffer: &buffer, style: focused ? Theme.focusedField : Theme.field)
            if focused { cursor = at }
        }
        buffer.setString("L:port:host:hostport  R:port:host:hostport  D:port", x: inner.x + labelWidth,
                         y: inner.y + 3, style: Theme.hint, clip: inner)
        if let error = editor.error {
            buffer.setString(TextSanitizer.line(error), x: inner.x, y: inner.y + 4, style: Theme.error, clip: inner)
        }
        return cursor
    }
}
