import Basics
import Foundation
import TUIKit
import Transfer

/// The Files screen: this machine's folder on the left, the server's on the right, each entry's name (sanitised),
/// size, mode, owner and modified time as far as the width allows (the status line has all of the selected one);
/// the transfer queue and the copy to the marked servers under them; the filter, a question, F8's confirmation or
/// the pager over them.
enum FilesView {
    static func render(_ screen: FilesState, _ state: AppState, into buffer: inout Buffer) -> Point? {
        let size = buffer.size
        let border = Border.preferred(unicode: state.unicode)
        let title = Rect(x: 0, y: 0, width: size.width, height: 1)
        let keys = Rect(x: 0, y: max(0, size.height - 1), width: size.width, height: 1)
        let status = Rect(x: 0, y: max(0, size.height - 2), width: size.width, height: 1)
        let server = screen.host.map { "\(screen.serverName) (\(TextSanitizer.line($0)))" } ?? screen.serverName
        StatusBar(left: [Span(" eSSH — Files: " + TextSanitizer.line(server), style: Style(attributes: .bold))],
                  right: [Span(" " + queueSummary(screen.queue) + " ")], style: Theme.title)
            .render(in: title, buffer: &buffer)
        if let pager = screen.pager {
            renderPager(pager, in: Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 3)),
                        into: &buffer)
            let line = pager.cut ? "Only the first \(ByteCountText.text(Update.filesPagerLimit)) are shown."
                : "The whole file is shown."
            StatusBar(left: [Span(" " + line)], style: Style(attributes: .dim)).render(in: status, buffer: &buffer)
            KeyBar(table: FilesPagerAction.table).render(in: keys, buffer: &buffer)
            return nil
        }
        let lower = lowerLines(screen, width: size.width)
        let lowerHeight = min(lower.count, max(0, size.height - 8))
        let panes = Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 3 - lowerHeight))
        let leftWidth = panes.width / 2
        var cursor: Point?
        for side in FilesSide.allCases {
            let area = side == .local ? Rect(x: 0, y: panes.y, width: leftWidth, height: panes.height)
                : Rect(x: leftWidth, y: panes.y, width: panes.width - leftWidth, height: panes.height)
            if let at = renderPane(screen, side, in: area, border: border, state: state, into: &buffer) {
                cursor = at
            }
        }
        for (row, line) in lower.prefix(lowerHeight).enumerated() {
            buffer.setSpans(line, x: 0, y: panes.maxY + row,
                            clip: Rect(x: 0, y: panes.maxY + row, width: size.width, height: 1))
        }
        let line = state.notice ?? selectedLine(screen)
        StatusBar(left: [Span(" " + TextSanitizer.line(line))], right: [], style: Style(attributes: .dim))
            .render(in: status, buffer: &buffer)
        if let confirm = screen.confirm {
            KeyBar(table: DialogAction.table).render(in: keys, buffer: &buffer)
            Dialog(title: "Delete", message: confirm.message, buttons: FilesConfirm.buttons,
                   selected: confirm.selected, border: border)
                .render(in: Rect(size).inset(horizontal: 2, vertical: 1), buffer: &buffer)
            return nil
        }
        if let question = screen.question {
            KeyBar(table: FilesQuestionAction.table).render(in: keys, buffer: &buffer)
            return QuestionBox(title: question.title, question: questionLabel(question, screen),
                               hint: "Enter: do it   Esc: leave it", problem: question.problem, width: 60,
                               border: border, fieldStyle: Theme.field, hintStyle: Theme.hint,
                               problemStyle: Theme.error)
                .render(question.input, in: Rect(size).inset(horizontal: 1, vertical: 0), buffer: &buffer)
        }
        if screen.pane.filtering {
            KeyBar(table: FilesFilterAction.table).render(in: keys, buffer: &buffer)
            return cursor
        }
        KeyBar(table: FilesAction.table).render(in: keys, buffer: &buffer)
        return nil
    }

    /// F5's question about a name in the destination already: both entries' sizes and times, the free name a rename
    /// takes, the question's keys in the key bar.
    static func renderConflict(_ question: FilesConflictQuestion, _ state: AppState, border: Border,
                               into buffer: inout Buffer) {
        guard let conflict = question.asked else { return }
        let size = buffer.size
        var zone = TimeZone.current
        var into = FileRow.display(question.destination)
        if case .files(let screen) = state.screen {
            zone = screen.timeZone
            into = Update.place(screen, question.from.other, path: question.destination)
        }
        let describe = { (row: FileRow) in
            CountText.text(Int(row.size), "byte") + ", " + timeText(row.modified, now: state.now, zone: zone)
                + (row.kind == .symlink ? " (a link)" : "")
        }
        let rename = question.renameTarget.map(FileRow.display) ?? ""
        let message = "\(conflict.source.displayName) is in \(into) already.\n"
            + "There:  \(describe(conflict.existing))\nCopied: \(describe(conflict.source))\n\n"
            + "Overwrite it, skip it, or copy it as \(rename)?"
        let title = question.total > 1 ? "Already there (\(question.number) of \(question.total))" : "Already there"
        Dialog(title: title, message: message, buttons: FilesConflictAction.buttons.map(\.label),
               selected: question.selected, border: border)
            .render(in: Rect(size).inset(horizontal: 2, vertical: 1), buffer: &buffer)
        KeyBar(table: FilesConflictAction.table)
            .render(in: Rect(x: 0, y: max(0, size.height - 1), width: size.width, height: 1), buffer: &buffer)
    }

    /// The title bar's right side: what the queue is doing.
    static func queueSummary(_ queue: TransferQueue) -> String {
        let waiting = queue.items.filter { $0.state == .waiting }.count
        let paused = queue.items.filter { $0.state == .paused }.count
        var parts: [String] = []
        if queue.active != nil { parts.append("copying") }
        if waiting > 0 { parts.append("\(waiting) waiting") }
        if paused > 0 { parts.append("\(paused) paused") }
        return parts.joined(separator: " · ")
    }

    private static func questionLabel(_ question: FilesQuestion, _ screen: FilesState) -> String {
        let place = Update.place(screen, question.side)
        switch question.kind {
        case .rename(let row): return "New name for \(row.displayName) in \(place):"
        case .makeDirectory: return "Name of the new folder in \(place):"
        case .changeMode(let paths):
            return paths.count == 1 ? "Mode of \(FileRow.display(FilePath.lastPart(paths[0]))) (octal):"
                : "Mode of \(paths.count) entries (octal):"
        }
    }

    // MARK: a pane

    private static func renderPane(_ screen: FilesState, _ side: FilesSide, in area: Rect, border: Border,
                                   state: AppState, into buffer: inout Buffer) -> Point? {
        let pane = screen[side]
        let active = screen.active == side
        let where_ = side == .local ? "local" : screen.serverName
        var suffix = ""
        if !pane.filter.text.isEmpty || pane.filtering { suffix += " [/\(TextSanitizer.line(pane.filter.text))]" }
        if !pane.marks.isEmpty { suffix += " (\(pane.marks.count) marked)" }
        let room = area.width - 6 - DisplayWidth.of(where_) - 2 - DisplayWidth.of(suffix)
        let path = pane.path.isEmpty ? "…" : tail(FileRow.display(pane.path), fitting: max(1, room))
        let heading = DisplayWidth.truncate("\(where_): " + path + suffix, to: max(1, area.width - 6))
        let inner = Box(title: heading, border: border,
                        style: active ? .plain : Theme.hint,
                        titleStyle: active ? Style(attributes: [.bold, .reverse]) : Style(attributes: .bold))
            .render(in: area, buffer: &buffer)
        guard inner.height > 0, inner.width > 0 else { return nil }
        var cursor: Point?
        var table = inner
        if pane.filtering {
            buffer.setString("/", x: inner.x, y: inner.y, style: Theme.label, clip: inner)
            let field = Rect(x: inner.x + 1, y: inner.y, width: max(1, inner.width - 1), height: 1)
            cursor = pane.filter.render(in: field, buffer: &buffer, style: Theme.focusedField)
            table = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 1))
        }
        let message: String?
        if side == .remote, let problem = screen.connectionProblem {
            message = problem
        } else if let problem = pane.problem, pane.rows.isEmpty {
            message = problem
        } else if pane.loading && pane.rows.isEmpty {
            message = side == .remote && screen.host == nil ? "Connecting…" : "Listing…"
        } else if pane.rows.isEmpty {
            message = pane.filter.text.isEmpty ? "(empty folder)" : "Nothing matches the filter."
        } else {
            message = nil
        }
        if let message {
            var y = table.y
            for line in DisplayWidth.wrap(TextSanitizer.line(message), to: max(1, table.width - 2)) {
                guard y < table.maxY else { break }
                buffer.setString(line, x: table.x + 1, y: y, style: message.hasPrefix("(") ? Theme.hint : Theme.error,
                                 clip: table)
                y += 1
            }
            return cursor
        }
        let columns = columns(for: table.width)
        var list = pane.list
        TableView(columns: columns.map(\.column), rows: [],
                  highlightStyle: active ? Style(attributes: .reverse) : Style(attributes: .underline))
            .render(in: table, buffer: &buffer, state: &list, rowCount: pane.rows.count) { index in
                let row = pane.rows[index]
                let marked = pane.isMarked(row)
                return columns.map { cell(row, $0.kind, marked: marked, screen: screen, now: state.now) }
            }
        return cursor
    }

    /// The end of `text` in `width` columns, `…` in front when cut (a path's last folders matter most).
    static func tail(_ text: String, fitting width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var kept = ""
        for character in text.reversed() {
            if DisplayWidth.of(kept) + DisplayWidth.of(character) + 1 > width { break }
            kept.insert(character, at: kept.startIndex)
        }
        return "…" + kept
    }

    enum ColumnKind { case name, size, mode, owner, modified }

    /// The columns a pane of `width` has room for: the name always, then size, modified time, mode and owner.
    static func columns(for width: Int) -> [(kind: ColumnKind, column: TableView.Column)] {
        var columns: [(kind: ColumnKind, column: TableView.Column)] = [
            (.name, .init("Name", width: .fill(1))), (.size, .init("Size", width: .fixed(8), alignment: .right)),
        ]
        if width >= 36 { columns.append((.modified, .init("Modified", width: .fixed(12)))) }
        if width >= 58 { columns.insert((.mode, .init("Mode", width: .fixed(10))), at: 2) }
        if width >= 68 { columns.insert((.owner, .init("Owner", width: .fixed(8))), at: 3) }
        return columns
    }

    private static func cell(_ row: FileRow, _ kind: ColumnKind, marked: Bool, screen: FilesState,
                             now: Date) -> Span {
        switch kind {
        case .name:
            let suffix: String
            switch row.kind {
            case .directory: suffix = "/"
            case .symlink: suffix = row.linksToDirectory ? "@/" : "@"
            case .file: suffix = row.mode & 0o111 != 0 ? "*" : ""
            case .other: suffix = "|"
            }
            let style = marked ? Style(fg: .yellow, attributes: .bold)
                : row.opens ? Style(fg: .blue, attributes: .bold) : .plain
            return Span((marked ? "+" : " ") + row.displayName + suffix, style: style)
        case .size: return Span(row.kind == .directory ? "folder" : sizeText(row.size))
        case .mode: return Span(row.modeText)
        case .owner: return Span(TextSanitizer.line(row.owner))
        case .modified: return Span(timeText(row.modified, now: now, zone: screen.timeZone))
        }
    }

    /// `12.3M`: short sizes for the column (exact bytes below 10 000).
    static func sizeText(_ bytes: Int64) -> String {
        if bytes < 10_000 { return String(bytes) }
        let units = ["K", "M", "G", "T", "P"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return (value < 100 ? String(format: "%.1f", value) : String(Int(value.rounded()))) + units[unit]
    }

    /// `Nov 24 13:05` within half a year of `now`, else `Nov 24  2025`, as `ls -l` writes it.
    static func timeText(_ seconds: Int64, now: Date, zone: TimeZone) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        let recent = abs(now.timeIntervalSince(date)) < 182 * 86_400
        formatter.dateFormat = recent ? "MMM dd HH:mm" : "MMM dd  yyyy"
        return formatter.string(from: date)
    }

    /// `1.5 MB`: byte counts in sentences and the queue (decimal units, as the Tunnels screen's).
    static func bytes(_ count: Int64) -> String { ByteCountText.decimal(count) }

    /// The selected entry in full: mode, owner, exact size, time and the whole (sanitised) name.
    static func selectedLine(_ screen: FilesState) -> String {
        let pane = screen.pane
        guard let row = pane.selected else {
            return "Tab: the other pane · Backspace: up · F5: copy · Esc or q: back"
        }
        let size = row.kind == .directory ? "folder" : CountText.text(Int(row.size), "byte")
        let date = Date(timeIntervalSince1970: TimeInterval(row.modified))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = screen.timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return "\(row.modeText) \(TextSanitizer.line(row.owner)) \(size) \(formatter.string(from: date)) "
            + row.displayName
    }

    // MARK: the queue and the copies to servers

    /// The lines under the panes: the transfer queue, then the copy to the marked servers (a row per server).
    static func lowerLines(_ screen: FilesState, width: Int) -> [[Span]] {
        var lines: [[Span]] = screen.queue.shown.map { queueLine($0, width: width) }
        if let copies = screen.serverCopies {
            lines.append([Span(" " + copies.label + " — \(copies.finished) of \(copies.rows.count) done",
                               style: Theme.label)])
            let nameWidth = min(24, copies.rows.map { DisplayWidth.of($0.server) }.max() ?? 6)
            for row in copies.rows {
                let style: Style = row.status == "ok" ? Style(fg: .green)
                    : row.status == FilesServerCopies.copying ? Style(fg: .yellow) : Theme.error
                let detail = row.lines.count <= 1 ? (row.lines.first ?? "")
                    : "\(row.lines.count) files; \(row.lines.last ?? "")"
                lines.append([Span("  " + DisplayWidth.fit(TextSanitizer.line(row.server), to: nameWidth) + " "),
                              Span(DisplayWidth.fit(row.status, to: 10) + " ", style: style),
                              Span(TextSanitizer.line(detail))])
            }
        }
        return lines
    }

    /// One copy: its label, then its state or figures (file, percent, bytes, rate, time left).
    static func queueLine(_ item: TransferQueue.Item, width: Int) -> [Span] {
        let label = Span(" " + TextSanitizer.line(item.label) + "  ")
        switch item.state {
        case .waiting: return [label, Span("waiting", style: Theme.hint)]
        case .paused: return [label, Span("paused (p resumes)", style: Style(fg: .yellow))]
        case .pausing: return [label, Span("pausing…", style: Style(fg: .yellow))]
        case .cancelling: return [label, Span("cancelling…", style: Style(fg: .yellow))]
        case .finished(let end):
            switch end {
            case .arrived: return [label, Span("done", style: Style(fg: .green))]
            case .incomplete(let failed, let of):
                return [label, Span("\(failed) of \(of) failed: " + (item.problems.first ?? ""), style: Theme.error)]
            case .stopped(let text): return [label, Span(TextSanitizer.line(text), style: Theme.error)]
            case .cancelled: return [label, Span("cancelled", style: Theme.hint)]
            case .paused: return [label, Span("paused (p resumes)", style: Style(fg: .yellow))]
            }
        case .running:
            guard let p = item.progress else { return [label, Span("starting…", style: Theme.hint)] }
            return [label, Span(progressText(p), style: Style(fg: .cyan))]
        }
    }

    /// `37% 12.0 MB of 32.5 MB · 5.1 MB/s · 4 s left · file 2 of 3: big.iso 50%`.
    static func progressText(_ p: TransferProgress) -> String {
        let percent = p.totalBytes > 0 ? Int(p.totalDone * 100 / p.totalBytes) : 0
        var text = "\(percent)% \(bytes(p.totalDone)) of \(bytes(p.totalBytes))"
        if p.bytesPerSecond > 0 { text += " · \(ByteCountText.rate(p.bytesPerSecond))" }
        if let left = p.secondsLeft { text += " · \(DurationText.text(left, .wholeUnits)) left" }
        if !p.file.isEmpty {
            let filePercent = p.fileSize > 0 ? Int(p.fileDone * 100 / p.fileSize) : 100
            text += " · file \(min(p.filesDone + 1, max(1, p.filesTotal))) of \(p.filesTotal): "
                + FileRow.display(FilePath.lastPart(p.file)) + " \(filePercent)%"
        }
        return text
    }

    // MARK: the pager

    private static func renderPager(_ pager: FilesPager, in area: Rect, into buffer: inout Buffer) {
        guard area.height > 1 else { return }
        buffer.setString(" " + pager.title, x: area.x, y: area.y, style: Theme.label, clip: area.row(0))
        var view = pager.view
        TextView().render(pager.lines, in: Rect(x: area.x, y: area.y + 1, width: area.width,
                                                height: area.height - 1), buffer: &buffer, state: &view)
    }
}
