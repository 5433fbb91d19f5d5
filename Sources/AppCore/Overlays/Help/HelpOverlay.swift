import TUIKit

/// The help: every key of the screen below, from the same tables that drive its dispatch and key bar, then the
/// keys of the bars, forms and questions that open on it, so no key is missing from it.
enum HelpOverlay {
    /// A group of keys: the screen's own (no title), then one per bar or overlay.
    struct Section {
        var title: String?
        var items: [(keys: String, description: String)]

        init<Action>(_ title: String?, _ table: KeyBindingTable<Action>,
                     notes: [(keys: String, description: String)] = []) {
            self.title = title
            items = table.helpItems + notes
        }
    }

    /// The sections of `screen`'s help.
    static func sections(_ screen: Screen.Kind, summary: SummaryState? = nil, form: FormState? = nil) -> [Section] {
        let dialog = Section("In a dialog:", DialogAction.table, notes: DialogAction.notes)
        let help = Section("In this help:", HelpAction.table)
        let everywhere = Section("On every screen:", GlobalAction.table)
        switch screen {
        case .servers:
            return [Section(nil, ServersAction.table), Section("While typing the filter (/):", FilterAction.table),
                    Section("Asked for a command to run (x):", FleetQuestionAction.table),
                    Section("While searching its history (^R):", HistorySearchAction.table), dialog, help, everywhere]
        case .form:
            let purpose = form?.purpose ?? .addServer
            return [Section(nil, FormAction.table(for: purpose),
                            notes: purpose == .quickConnect || purpose == .settings ? [] : FormAction.serverNotes),
                    help, everywhere]
        case .connecting:
            return [Section(nil, ConnectingAction.table), dialog,
                    Section("Asked for a password or an answer:", PromptAction.table), help, everywhere]
        case .session:
            return [Section(nil, SessionAction.table), Section("While searching (^F):", SearchAction.table),
                    Section("While searching the history (^R):", HistorySearchAction.table),
                    Section("In the mail, save or pipe form (F6, F7, |):", OutputToolAction.table), dialog, help,
                    everywhere]
        case .fleet:
            return [Section(nil, FleetAction.table), Section("In the mail form (F6):", OutputToolAction.table),
                    dialog, help, everywhere]
        case .summary:
            return [Section(nil, summary?.keys ?? SummaryAction.table), help, everywhere]
        case .tunnels:
            return [Section(nil, TunnelsAction.table), Section("In the add / edit form (a, e):", TunnelEditorAction.table),
                    help, everywhere]
        case .files:
            return [Section(nil, FilesAction.table), Section("While typing the filter (/):", FilesFilterAction.table),
                    Section("In the rename, folder and mode questions (F6, F7, c):", FilesQuestionAction.table),
                    Section("In the delete question (F8):", DialogAction.table, notes: DialogAction.notes),
                    Section("When a name copied (F5) is in the other folder already:", FilesConflictAction.table),
                    Section("In the pager (F3):", FilesPagerAction.table), help, everywhere]
        }
    }

    /// One row of the help: keys and what they do (a long description, or many keys, go on over the next rows, with
    /// the keys' column empty), or a section's title; `keyWidth` is the keys' column of its section.
    struct Line: Equatable {
        var keys: String
        var description: String
        var keyWidth: Int
        var isTitle = false
    }

    /// Columns inside the help's box on a screen `width` wide (borders and a space each side).
    static func innerWidth(_ width: Int) -> Int { max(1, min(width, 70) - 4) }

    /// The help's rows at `width`: the screen's keys, then each titled section after a blank row. Nothing is cut:
    /// what does not fit a row wraps onto the next, so every word can be scrolled to.
    static func lines(_ state: AppState) -> [Line] {
        let inner = innerWidth(state.size.width)
        var lines: [Line] = []
        for section in sections(state.screen.kind, summary: state.summary, form: state.form) {
            let widest = section.items.map { DisplayWidth.of($0.keys) }.max() ?? 0
            // The keys take at most a third of the row; a longer list of keys wraps at its slashes.
            let keyWidth = min(widest, max(1, inner / 3))
            if let title = section.title {
                lines.append(Line(keys: "", description: "", keyWidth: 0, isTitle: true))
                lines += DisplayWidth.wrap(title, to: inner).map {
                    Line(keys: "", description: $0, keyWidth: 0, isTitle: true)
                }
            }
            for item in section.items {
                let keys = wrapKeys(item.keys, to: keyWidth)
                let words = DisplayWidth.wrap(item.description, to: max(1, inner - keyWidth - 2))
                for row in 0..<max(keys.count, words.count) {
                    lines.append(Line(keys: row < keys.count ? keys[row] : "",
                                      description: row < words.count ? words[row] : "", keyWidth: keyWidth))
                }
            }
        }
        return lines
    }

    /// `Esc/F1/?/q/Enter` in rows of at most `width` columns, broken after a slash (a single key wider than the
    /// column is broken where it must).
    static func wrapKeys(_ keys: String, to width: Int) -> [String] {
        guard DisplayWidth.of(keys) > width else { return [keys] }
        var rows: [String] = []
        var row = ""
        for (i, key) in keys.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            let piece = (i == 0 ? "" : "/") + key
            if !row.isEmpty && DisplayWidth.of(row + piece) > width {
                rows.append(row)
                row = String(key)
            } else {
                row += piece
            }
        }
        rows.append(row)
        return rows.flatMap { DisplayWidth.wrap($0, to: width) }
    }

    /// The help's box for `count` lines on a screen of `size`.
    static func frame(_ size: Size, count: Int) -> Rect {
        Rect(size).centered(width: min(size.width, 70), height: min(size.height, count + 2))
    }

    /// Lines visible at once.
    private static func rows(_ state: AppState, count: Int) -> Int { max(1, frame(state.size, count: count).height - 2) }

    static func key(_ state: inout AppState, _ help: inout HelpState, _ action: HelpAction?) {
        let count = lines(state).count
        let rows = rows(state, count: count)
        let last = max(0, count - rows)
        switch action {
        case .close?:
            state.showHelp = false
            return
        case .up?: help.top -= 1
        case .down?: help.top += 1
        case .pageUp?: help.top -= rows
        case .pageDown?: help.top += rows
        case .top?: help.top = 0
        case .bottom?: help.top = last
        case nil: break
        }
        help.top = min(max(0, help.top), last)
        state.overlays.help = help
    }

    static func render(_ help: HelpState, state: AppState, into buffer: inout Buffer) {
        let all = lines(state)
        let area = frame(buffer.size, count: all.count)
        let rows = max(0, area.height - 2)
        let top = min(help.top, max(0, all.count - rows))
        buffer.fill(area)
        let box = Box(title: "Keys (Esc closes)", border: Border.preferred(unicode: state.unicode))
            .render(in: area, buffer: &buffer)
        let inner = box.inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        for (i, line) in all.dropFirst(top).enumerated() where i < inner.height {
            let y = inner.y + i
            if line.isTitle {
                // A section's title (bold) or the blank row before it.
                buffer.setString(line.description, x: inner.x, y: y, style: Theme.label, clip: inner)
                continue
            }
            buffer.setString(line.keys, x: inner.x, y: y, style: Theme.label, clip: inner)
            buffer.setString(line.description, x: inner.x + line.keyWidth + 2, y: y, clip: inner)
        }
        // Say so when lines are above or below the box (↑ ↓ PgUp PgDn scroll).
        if top > 0 {
            buffer.setString(state.unicode ? " ↑ more " : " ^ more ", x: area.maxX - 10, y: area.y, style: Theme.hint,
                             clip: area)
        }
        if top + rows < all.count {
            buffer.setString(state.unicode ? " ↓ more " : " v more ", x: area.maxX - 10, y: area.maxY - 1,
                             style: Theme.hint, clip: area)
        }
    }
}
