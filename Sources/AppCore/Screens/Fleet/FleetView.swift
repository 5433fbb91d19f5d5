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
        // The count and the clock always show: a command too long for the row is shortened (…), not them.
        let progress = Span(" \(done)/\(run.results.count) done · \(FleetSummary.seconds(max(0, elapsed))) ")
        let lead = Span(" eSSH — Run: ", style: Style(attributes: .bold))
        let room = layout.title.width - lead.width - progress.width - 1
        let command = TextSanitizer.line(run.command)
        StatusBar(left: [lead, Span(DisplayWidth.truncate(command, to: max(1, room)))], right: [progress],
                  style: Theme.title).render(in: layout.title, buffer: &buffer)

        if let detail = run.detail, run.results.indices.contains(detail) {
            let result = run.results[detail]
            var view = run.detailView
            TextView().render(run.detailText, in: layout.detail, buffer: &buffer, state: &view)
            let seconds = run.seconds(detail, now: state.now).map { " · " + FleetSummary.seconds($0) } ?? ""
            let line = " \(result.name): \(result.statusText)\(seconds) · Esc back"
            StatusBar(left: [Span(line)], right: [], style: Style(attributes: .dim))
                .render(in: layout.status, buffer: &buffer)
            KeyBar(table: FleetAction.table).render(in: layout.keys, buffer: &buffer)
            return nil
        }

        let spinner = state.unicode ? Spinner.unicode : Spinner.ascii
        let rows: [[Span]] = run.results.enumerated().map { index, result in
            let (style, text) = Self.status(result.status, spinner: spinner.frame(state.tick))
            return [
                Span(result.name),
                Span(text, style: style),
                Span(result.exitStatus.map(String.init) ?? ""),
                Span(run.seconds(index, now: state.now).map(FleetSummary.seconds) ?? ""),
                // A running server shows its latest line as it comes (the CLI prints each line as it comes).
                Span(result.error ?? (result.status.isFinal ? firstLine(result) : lastLine(result))),
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

    /// The last line with text of a running server's output so far (stdout's, else stderr's), for the table.
    static func lastLine(_ result: FleetResult) -> String {
        let bytes = result.stdout.isEmpty ? result.stderr : result.stdout
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        var start = end
        while start > bytes.startIndex, bytes[start - 1] != 0x0A, end - start < 4096 { start -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        // A progress line (\r) shows its latest state.
        return String(line.split(separator: "\r").last ?? "")
    }

    /// The first line of a result's output, for the table.
    static func firstLine(_ result: FleetResult) -> String {
        let text = result.stdout.isEmpty ? result.stderrText : result.stdoutText
        return String(text.split(separator: "\n", maxSplits: 1).first ?? "")
    }

    /// The box asking for the command after `x` (or the one password for the servers that need it).
    static func render(_ question: FleetQuestion, count: Int, history: [String], border: Border,
                       into buffer: inout Buffer) -> Point? {
        let label: String
        switch question.kind {
        case .command: label = "Command to run on \(CountText.text(count, "server")) at once:"
        case .checking(_, let n):
            label = "Checking the host keys of the \(CountText.text(n, "server")) that log\(n == 1 ? "s" : "") in "
                + "with a password…"
        case .password(_, let n):
            label = "Password for the \(CountText.text(n, "server")) that log\(n == 1 ? "s" : "") in with one:"
        }
        // While the host keys are checked there is nothing to type: no field, and Esc cancels.
        var field: TextField? = question.input
        var hint = "Enter: run   Esc: cancel"
        if case .checking = question.kind {
            field = nil
            hint = "Esc: cancel"
        }
        let area = Rect(buffer.size).inset(horizontal: 1, vertical: 0)
        if let search = question.search {
            // Ctrl-R: the search in place of the field, what it found beside the term.
            return QuestionBox(title: "Run a command", question: label, hint: "Enter: run it   ^R: older   Esc: back",
                               width: 70, border: border, fieldStyle: Theme.field, hintStyle: Theme.hint)
                .render(in: area, buffer: &buffer) { row, buffer in
                    buffer.fill(row, with: .blank(Theme.field))
                    return search.render(found: search.found(in: history), in: row, buffer: &buffer)
                }
        }
        if question.kind == .command { hint += "   ↑↓ ^R: earlier commands" }
        return QuestionBox(title: "Run a command", question: label, hint: hint, width: 70, border: border,
                           fieldStyle: Theme.field, hintStyle: Theme.hint)
            .render(field, in: area, buffer: &buffer)
    }
}
