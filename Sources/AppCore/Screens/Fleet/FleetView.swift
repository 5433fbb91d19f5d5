import Basics
import Fleet
import Foundation
import TUIKit

/// The results of a fleet run: one row per server (status, exit status, time), then the output grouped so identical
/// outputs show once with their servers; Enter shows one server's full output. Remote text is sanitised.
enum FleetView {
    static func render(_ run: FleetRun, _ state: AppState, into buffer: inout Buffer) -> Point? {
        let layout = ScreenLayout.fleet(buffer.size, servers: run.results.count)
        let done = run.results.filter { $0.status.isFinal }.count
        let elapsed = (run.finishedAt ?? state.now).timeIntervalSince(run.startedAt)
        StatusBar(left: [Span(" eSSH — Run: ", style: Style(attributes: .bold)), Span(run.command)],
                  right: [Span(" \(done)/\(run.results.count) done · \(FleetSummary.seconds(max(0, elapsed))) ")],
                  style: Theme.title).render(in: layout.title, buffer: &buffer)

        if let detail = run.detail, run.results.indices.contains(detail) {
            let result = run.results[detail]
            var view = run.detailView
            TextView().render(run.detailText, in: layout.detail, buffer: &buffer, state: &view)
            let line = " \(result.name): \(result.statusText) · \(FleetSummary.seconds(result.duration))"
                + " · Esc back"
            StatusBar(left: [Span(line)], right: [], style: Style(attributes: .dim))
                .render(in: layout.status, buffer: &buffer)
            KeyBar(table: FleetAction.table).render(in: layout.keys, buffer: &buffer)
            return nil
        }

        let spinner = state.unicode ? Spinner.unicode : Spinner.ascii
        let rows: [[Span]] = run.results.map { result in
            let (style, text) = Self.status(result.status, spinner: spinner.frame(state.tick))
            return [
                Span(result.name),
                Span(text, style: style),
                Span(result.exitStatus.map(String.init) ?? ""),
                Span(result.status.isFinal ? FleetSummary.seconds(result.duration) : ""),
                Span(result.error ?? firstLine(result)),
            ]
        }
        let nameWidth = min(max(run.results.map { DisplayWidth.of($0.name) }.max() ?? 6, 6), 32)
        // Wide enough for the longest word shown (`host-key-unknown`), never cut.
        let statusWidth = max(11, run.results.map { $0.status.label.count }.max() ?? 11)
        let table = TableView(columns: [
            .init("Server", width: .fixed(nameWidth)), .init("Status", width: .fixed(statusWidth)),
            .init("Exit", width: .fixed(4), alignment: .right), .init("Time", width: .fixed(8), alignment: .right),
            .init("Output", width: .fill(1)),
        ], rows: rows.map { $0.map { Span(TextSanitizer.sanitize($0.text), style: $0.style) } })
        var list = run.list
        table.render(in: layout.table, buffer: &buffer, state: &list)

        let rule = "── Output, identical outputs once " + String(repeating: "─", count: max(0, layout.rule.width))
        buffer.setString(state.unicode ? rule : rule.replacingOccurrences(of: "─", with: "-"), x: 0, y: layout.rule.y,
                         style: Theme.hint, clip: layout.rule)
        var view = run.groupedView
        TextView().render(run.grouped, in: layout.output, buffer: &buffer, state: &view)

        let summary = FleetSummary(run.results)
        var status = " " + summary.line(elapsed: run.isRunning ? nil : elapsed)
        if run.cancelling { status += " · stopping…" } else if run.isRunning { status += " · Esc stops the rest" }
        StatusBar(left: [Span(state.notice.map { " " + $0 } ?? status)], right: [], style: Style(attributes: .dim))
            .render(in: layout.status, buffer: &buffer)
        KeyBar(table: FleetAction.table).render(in: layout.keys, buffer: &buffer)
        return nil
    }

    /// The colour and word for a status (the spinner frame for a running server).
    static func status(_ status: FleetStatus, spinner: String) -> (Style, String) {
        // The words of the text report and the JSON (FleetStatus.label).
        switch status {
        case .running: return (Style(fg: .yellow), "\(spinner) running")
        case .ok: return (Style(fg: .green), status.label)
        case .waiting, .cancelled: return (Style(fg: .gray), status.label)
        case .failed, .timedOut, .dnsError, .refused, .unreachable, .notSSH, .hostKeyUnknown, .hostKeyChanged,
             .hostKeyRevoked, .authFailed, .configError, .connectFailed:
            return (Style(fg: .red), status.label)
        }
    }

    /// The first line of a result's output, for the table.
    static func firstLine(_ result: FleetResult) -> String {
        let text = result.stdout.isEmpty ? result.stderrText : result.stdoutText
        return String(text.split(separator: "\n", maxSplits: 1).first ?? "")
    }

    /// The box asking for the command after `x` (or the one password for the servers that need it).
    static func render(_ question: FleetQuestion, count: Int, history: [String], border: Border,
                       into buffer: inout Buffer) -> Point? {
        let width = min(buffer.size.width - 2, 70)
        let frame = buffer.area.centered(width: width, height: 6)
        buffer.fill(frame)
        let inner = Box(title: "Run a command", border: border).render(in: frame, buffer: &buffer)
        let label: String
        switch question.kind {
        case .command: label = "Command to run on \(CountText.text(count, "server")) at once:"
        case .checking(_, let n):
            label = "Checking the host keys of the \(CountText.text(n, "server")) that log\(n == 1 ? "s" : "") in "
                + "with a password…"
        case .password(_, let n):
            label = "Password for the \(CountText.text(n, "server")) that log\(n == 1 ? "s" : "") in with one:"
        }
        buffer.setString(label, x: inner.x + 1, y: inner.y, clip: inner)
        if case .checking = question.kind {
            buffer.setString("Esc: cancel", x: inner.x + 1, y: inner.y + 3, style: Theme.hint, clip: inner)
            return nil
        }
        let field = Rect(x: inner.x + 1, y: inner.y + 1, width: max(0, inner.width - 2), height: 1)
        if let search = question.search {
            // Ctrl-R: the search in place of the field, what it found beside the term.
            buffer.fill(field, with: .blank(Theme.field))
            let cursor = search.render(found: search.found(in: history), in: field, buffer: &buffer)
            buffer.setString("Enter: run it   ^R: older   Esc: back", x: inner.x + 1, y: inner.y + 3,
                             style: Theme.hint, clip: inner)
            return cursor
        }
        let cursor = question.input.render(in: field, buffer: &buffer, style: Theme.field)
        let hint = question.kind == .command ? "Enter: run   Esc: cancel   ↑↓ ^R: earlier commands"
            : "Enter: run   Esc: cancel"
        buffer.setString(hint, x: inner.x + 1, y: inner.y + 3, style: Theme.hint, clip: inner)
        return cursor
    }
}
