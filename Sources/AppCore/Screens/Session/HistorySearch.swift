import TUIKit

/// What a key does while Ctrl-R searches the command history (the session's, or the fleet question's); other keys
/// type the term.
enum HistorySearchAction: Sendable, Equatable {
    case run, older, cancel, edit

    static let table = KeyBindingTable<HistorySearchAction>([
        KeyBinding([.enter], .run, description: "Run the command found"),
        KeyBinding([.ctrl("r")], .older, description: "The next older command with the term"),
        KeyBinding([.escape, .ctrl("g"), .ctrl("c")], .cancel,
                   description: "Close the search: the line typed before comes back"),
        KeyBinding([.left, .right, .tab, .up, .down], .edit,
                   description: "Put the command found on the line, to change it before Enter"),
    ])
}

/// Ctrl-R: an incremental search of a command history, newest first, as readline's reverse-i-search. Each key
/// typed narrows the term and the match moves to the newest command (at or before the one shown) that contains it;
/// Ctrl-R again goes to older ones. A value, kept by whoever owns the command line.
struct HistorySearch: Sendable, Equatable {
    /// The term.
    var input = TextField()
    /// The index in the history of the command found (nil: none yet).
    var match: Int?
    /// The last search found nothing (the match shown, if any, is the one before).
    var notFound = false
    /// The line as it was when Ctrl-R was pressed: Esc puts it back.
    var draft: String

    init(draft: String) { self.draft = draft }

    /// The command found, if any.
    func found(in history: [String]) -> String? {
        match.flatMap { history.indices.contains($0) ? history[$0] : nil }
    }

    /// Handles a key that is no action of the table: typing changes the term and searches again from the match shown
    /// (or from the newest when the term got shorter).
    mutating func type(_ key: Key, in history: [String]) {
        let before = input.text
        guard input.handle(key), input.text != before else { return }
        let from = input.text.hasPrefix(before) ? (match ?? history.count - 1) : history.count - 1
        find(in: history, from: from)
    }

    /// Ctrl-R again: the next older command with the term.
    mutating func older(in history: [String]) {
        guard let match else { return find(in: history, from: history.count - 1) }
        find(in: history, from: match - 1)
    }

    /// The newest command at or before index `from` containing the term (ASCII letters in either case).
    private mutating func find(in history: [String], from: Int) {
        let term = input.text.lowercased()
        guard !term.isEmpty else {
            match = nil
            notFound = false
            return
        }
        var index = min(from, history.count - 1)
        while index >= 0 {
            if history[index].lowercased().contains(term) {
                match = index
                notFound = false
                return
            }
            index -= 1
        }
        notFound = true
    }

    /// `(history) term` and what it found, in place of a command line; returns where the cursor goes.
    func render(found: String?, in area: Rect, buffer: inout Buffer) -> Point? {
        let label = "^R history: "
        buffer.setString(label, x: area.x, y: area.y, style: Theme.label, clip: area)
        let termWidth = min(max(DisplayWidth.of(input.text) + 1, 8), max(1, area.width / 3))
        let field = Rect(x: area.x + label.count, y: area.y, width: max(0, termWidth), height: 1)
        let cursor = input.render(in: field, buffer: &buffer)
        let shown = notFound ? "not found" + (found.map { " (still: \($0))" } ?? "")
            : found ?? "type to search; Enter runs, Esc closes"
        let x = field.maxX + 1
        let rest = Rect(x: x, y: area.y, width: max(0, area.maxX - x), height: 1)
        buffer.setString("→ " + TextSanitizer.line(shown), x: rest.x, y: rest.y,
                         style: found == nil || notFound ? Style(attributes: .dim) : .plain, clip: rest)
        return cursor
    }
}
