import NetParsers
import TUIKit

/// What a key does in a session (other keys edit the command line, which always has focus).
enum SessionAction: Sendable, Equatable {
    case run, cancel, historyUp, historyDown, pageUp, pageDown, top, bottom
    case interfaces, routes, sockets, toggleParsed, end, help, search, searchNext, searchPrevious
    case mail, save, pipe, retryMail, shell

    static let table = KeyBindingTable<SessionAction>([
        KeyBinding([.enter], .run, description: "Run the command line"),
        KeyBinding([.escape], .cancel, label: "Stop", description: "Stop the running command; close the table"),
        KeyBinding([.function(2)], .interfaces, label: "Ifaces", description: "Interfaces (parsed table)"),
        KeyBinding([.function(3)], .routes, label: "Routes", description: "Routes (parsed table)"),
        KeyBinding([.function(4)], .sockets, label: "Sockets", description: "Sockets (parsed table)"),
        KeyBinding([.function(5)], .toggleParsed, label: "Raw", description: "Parsed table / raw output"),
        // F6 and F8 before Find: at 80 columns the bar ends after End, and mail and shell matter more there.
        KeyBinding([.function(6)], .mail, label: "Mail", description: "Mail the last command's output (sendmail)"),
        KeyBinding([.function(8)], .shell, label: "Shell",
                   description: "Interactive shell on this session (~. or exit comes back)"),
        KeyBinding([.function(1)], .help, label: "Help", description: "This help"),
        KeyBinding([.function(10), .ctrl("d")], .end, label: "End", description: "End the session"),
        // Cut from an 80-column key bar; help (F1) always lists them.
        KeyBinding([.ctrl("f")], .search, label: "Find", description: "Search the output: Enter finds, Esc closes"),
        KeyBinding([.ctrl("p")], .searchPrevious, description: "Previous (older) match of the search"),
        KeyBinding([.ctrl("n")], .searchNext, description: "Next (newer) match of the search"),
        KeyBinding([.function(7)], .save, label: "Save", description: "Save the last command's output to a file"),
        KeyBinding([.character("|")], .pipe, label: "Pipe",
                   description: "Pipe the last output into a local command (empty line)"),
        KeyBinding([.function(9)], .retryMail, description: "Send the mail waiting in the outbox again"),
        KeyBinding([.up], .historyUp, description: "Previous command from history"),
        KeyBinding([.down], .historyDown, description: "Next command from history"),
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
