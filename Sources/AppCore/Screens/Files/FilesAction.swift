import TUIKit

/// What a key does on the Files screen. The F-keys have Alt-digit twins, as in a session, for terminals that keep the
/// F-keys for themselves.
enum FilesAction: Sendable, Equatable {
    case up, down, pageUp, pageDown, first, last
    case open, parent, switchPane, mark, invertMarks, filter, sort, reload
    case view, copy, rename, makeDirectory, delete, changeMode
    case pause, cancel, clearFinished, copyToServers, back, help

    static let table = KeyBindingTable<FilesAction>([
        KeyBinding([.function(1), .character("?")], .help, label: "Help", description: "This help"),
        KeyBinding([.function(3), .alt("3")], .view, label: "View",
                   description: "View the selected file's start (sanitised, as a session's output)"),
        KeyBinding([.function(5), .alt("5")], .copy, label: "Copy",
                   description: "Copy the marked (or selected) entries into the other pane's folder"),
        KeyBinding([.function(6), .alt("6")], .rename, label: "Rename", description: "Rename the selected entry"),
        KeyBinding([.function(7), .alt("7")], .makeDirectory, label: "Mkdir", description: "Make a folder here"),
        KeyBinding([.function(8), .alt("8"), .delete], .delete, label: "Delete",
                   description: "Delete the marked (or selected) entries, folders with their contents (asks first)"),
        KeyBinding([.character("c")], .changeMode, label: "Chmod",
                   description: "Change the mode of the marked (or selected) entries (octal, as 644 or 0755)"),
        KeyBinding([.escape], .cancel, label: "Cancel",
                   description: "Cancel the running copy (its partial file is removed); with none: back"),
        KeyBinding([.character("p")], .pause, label: "Pause",
                   description: "Pause the running copy, keeping its partial file; again: resume it from there"),
        KeyBinding([.function(10), .character("q")], .back, label: "Back",
                   description: "Back to the servers or the session (a running copy is cancelled)"),
        KeyBinding([.tab, .backTab], .switchPane, description: "The other pane"),
        KeyBinding([.enter, .right], .open, description: "Open the selected folder"),
        KeyBinding([.backspace, .left], .parent, description: "Up to the folder above"),
        KeyBinding([.character(" "), .insert], .mark, description: "Mark or unmark the selected entry (and go down)"),
        KeyBinding([.character("*")], .invertMarks, description: "Invert the marks of every entry shown"),
        KeyBinding([.character("/")], .filter, description: "Filter this pane's names (Enter keeps it, Esc clears it)"),
        KeyBinding([.character("s")], .sort, description: "Sort by name, size or time: each press the next"),
        KeyBinding([.function(2), .alt("2"), .ctrl("r")], .reload, description: "List both panes again"),
        KeyBinding([.character("m")], .copyToServers,
                   description: "Copy the local marked (or selected) files to every server marked on the list, "
                       + "into the server pane's folder"),
        KeyBinding([.character("x")], .clearFinished, description: "Clear the finished copies from the queue"),
        KeyBinding([.up, .character("k")], .up, description: "Previous entry"),
        KeyBinding([.down, .character("j")], .down, description: "Next entry"),
        KeyBinding([.pageUp], .pageUp, description: "Page up"),
        KeyBinding([.pageDown], .pageDown, description: "Page down"),
        KeyBinding([.home, .character("g")], .first, description: "First entry"),
        KeyBinding([.end, .character("G")], .last, description: "Last entry"),
    ])
}

/// What a key does while a pane's filter (`/`) is typed (other keys type it).
enum FilesFilterAction: Sendable, Equatable {
    case done, clear, up, down

    static let table = KeyBindingTable<FilesFilterAction>([
        KeyBinding([.enter], .done, description: "Keep the filter and go back to the entries"),
        KeyBinding([.escape], .clear, description: "Clear the filter"),
        KeyBinding([.up], .up, description: "Previous entry"),
        KeyBinding([.down], .down, description: "Next entry"),
    ])
}

/// What a key does in the rename, make-folder and chmod questions (other keys type the answer).
enum FilesQuestionAction: Sendable, Equatable {
    case answer, cancel

    static let table = KeyBindingTable<FilesQuestionAction>([
        KeyBinding([.enter], .answer, description: "Do it"),
        KeyBinding([.escape], .cancel, description: "Leave it: nothing changes"),
    ])
}

/// What a key does in F5's question about a name that is in the destination folder already. The letters are the
/// buttons' (the capitals answer every name left).
enum FilesConflictAction: Sendable, Equatable {
    case answer(FilesConflictQuestion.Answer)
    case previous, next, choose, cancel

    static let table = KeyBindingTable<FilesConflictAction>([
        KeyBinding([.character("o")], .answer(.overwrite), label: "Overwrite",
                   description: "Overwrite the file there with the one copied"),
        KeyBinding([.character("s")], .answer(.skip), label: "Skip",
                   description: "Skip this one: the file there stays"),
        KeyBinding([.character("r")], .answer(.rename), label: "Rename",
                   description: "Copy it under a free name (NAME.1, NAME.2, …); the file there stays"),
        KeyBinding([.character("O")], .answer(.overwriteAll), label: "Overwrite all",
                   description: "Overwrite this one and every other file of the copy that is there"),
        KeyBinding([.character("S")], .answer(.skipAll), label: "Skip all",
                   description: "Skip this one and every other file of the copy that is there"),
        KeyBinding([.escape], .cancel, label: "Cancel", description: "Cancel the whole copy: nothing is copied"),
        KeyBinding([.left, .backTab], .previous, description: "Previous button"),
        KeyBinding([.right, .tab], .next, description: "Next button"),
        KeyBinding([.enter], .choose, description: "Choose the highlighted button (Skip at first)"),
    ])

    /// The question's buttons, left to right: the labelled answers of the table.
    static let buttons: [(label: String, answer: FilesConflictQuestion.Answer)] = table.bindings.compactMap {
        if case .answer(let answer) = $0.action, let label = $0.label { return (label, answer) }
        return nil
    }
}

/// What a key does in the pager (F3).
enum FilesPagerAction: Sendable, Equatable {
    case up, down, pageUp, pageDown, top, bottom, left, right, close

    static let table = KeyBindingTable<FilesPagerAction>([
        KeyBinding([.escape, .character("q"), .function(3), .alt("3")], .close, label: "Close",
                   description: "Close the pager"),
        KeyBinding([.up, .character("k")], .up, description: "Up a line"),
        KeyBinding([.down, .character("j"), .enter], .down, description: "Down a line"),
        KeyBinding([.pageUp, .character("b")], .pageUp, description: "Page up"),
        KeyBinding([.pageDown, .character(" ")], .pageDown, description: "Page down"),
        KeyBinding([.home, .character("g")], .top, description: "The start"),
        KeyBinding([.end, .character("G")], .bottom, description: "The end (of what was read)"),
        KeyBinding([.left], .left, description: "Scroll long lines left"),
        KeyBinding([.right], .right, description: "Scroll long lines right"),
    ])
}
