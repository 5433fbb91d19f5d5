import NetParsers
import TUIKit

/// What a key does in a session (other keys edit the command line, which always has focus). Every F-key has an
/// Alt-digit twin (sent as Esc and the digit together) for terminals that keep the F-keys for themselves, but F10,
/// which has ^D.
enum SessionAction: Sendable, Equatable {
    case run, cancel, interrupt, historyUp, historyDown, historySearch, pageUp, pageDown, top, bottom
    case scrollLeft, scrollRight
    case interfaces, routes, sockets, toggleParsed, end, help, search, searchNext, searchPrevious
    case mail, save, pipe, retryMail, shell, reconnect, files

    static let table = KeyBindingTable<SessionAction>([
        KeyBinding([.enter], .run, description: "Run the command line (!CMD: on your terminal)"),
        KeyBinding([.escape], .cancel, label: "Stop", description: "Stop the running command; close the table"),
        KeyBinding([.function(2), .alt("2")], .interfaces, label: "Ifaces", description: "Interfaces (parsed table)"),
        KeyBinding([.function(3), .alt("3")], .routes, label: "Routes", description: "Routes (parsed table)"),
        KeyBinding([.function(4), .alt("4")], .sockets, label: "Sockets", description: "Sockets (parsed table)"),
        KeyBinding([.function(5), .alt("5")], .toggleParsed, label: "Raw", description: "Parsed table / raw output"),
        // F6 and F8 before Find: at 80 columns the bar ends after End, and mail and shell matter more there.
        KeyBinding([.function(6), .alt("6")], .mail, label: "Mail",
                   description: "Mail the last command's output (sendmail)"),
        KeyBinding([.function(8), .alt("8")], .shell, label: "Shell",
                   description: "Interactive shell on this session (~. or exit returns)"),
        KeyBinding([.function(1), .alt("1")], .help, label: "Help", description: "This help"),
        KeyBinding([.function(10), .ctrl("d")], .end, label: "End", description: "End the session"),
        // Cut from an 80-column key bar; help (F1) always lists them.
        KeyBinding([.ctrl("c")], .interrupt, description: "Stop the running command, as Esc; else clear the line"),
        KeyBinding([.ctrl("r")], .historySearch, description: "Search the history as you type (again: older)"),
        KeyBinding([.ctrl("f")], .search, label: "Find", description: "Search the output: Enter finds, Esc closes"),
        KeyBinding([.ctrl("p")], .searchPrevious, description: "Previous (older) match of the search"),
        KeyBinding([.ctrl("n")], .searchNext, description: "Next (newer) match of the search"),
        KeyBinding([.function(7), .alt("7")], .save, label: "Save",
                   description: "Save the last command's output to a file"),
        KeyBinding([.character("|")], .pipe, label: "Pipe",
                   description: "Pipe the last output into a local command (empty line)"),
        KeyBinding([.function(11), .ctrl("o")], .files, label: "Files",
                   description: "Files: this server's (from the folder of the last cd) beside this machine's"),
        KeyBinding([.function(9), .alt("9")], .retryMail, description: "Send the mail waiting in the outbox again"),
        KeyBinding([.character("r")], .reconnect, description: "Reconnect after the connection was lost (empty line)"),
        KeyBinding([.up], .historyUp, description: "Previous command from history"),
        KeyBinding([.down], .historyDown, description: "Next command from history"),
        KeyBinding([.left], .scrollLeft, description: "Scroll long lines left (empty line, session.wrap off)"),
        KeyBinding([.right], .scrollRight, description: "Scroll long lines right (the same)"),
        KeyBinding([.pageUp], .pageUp,
                   description: "Scroll output up (also the mouse wheel, when m on the servers list turned it on)"),
        KeyBinding([.pageDown], .pageDown, description: "Scroll output down"),
        KeyBinding([.home], .top, description: "Oldest output"),
        KeyBinding([.end], .bottom, description: "Newest output (follow)"),
    ])

    /// The quick command F2 / F3 / F4 run (from the action, never from the key, so the table can rebind them).
    var dataKind: DataKind? {
        switch self {
        case .interfaces: return .interfaces
        case .routes: return .routes
        case .sockets: return .sockets
        default: return nil
        }
    }
}
