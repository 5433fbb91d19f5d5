import Operations
import TUIKit

/// What a key does on the Servers screen.
enum ServersAction: Sendable, Equatable {
    case up, down, pageUp, pageDown, first, last
    case connect, add, edit, delete, quickConnect, check, filter, clearFilter, settings, help, quit
    case shell
    case mark, markAll, runOnMarked
    case cycleOrder, toggleGroups, collapse, expand, toggleMouse
    case tunnels, files
    case lockVault
    case installKey

    static let table = KeyBindingTable<ServersAction>([
        KeyBinding([.enter], .connect, label: "Connect", description: "Connect to the selected server"),
        KeyBinding([.character("a")], .add, label: "Add", description: "Add a server"),
        KeyBinding([.character("e")], .edit, label: "Edit", description: "Edit the selected server"),
        KeyBinding([.character("d"), .delete], .delete, label: "Del", description: "Delete the selected server"),
        KeyBinding([.character("n")], .quickConnect, label: "Quick", description: "Connect to a host not saved"),
        KeyBinding([.character("c")], .check, label: "Check", description: "Check which servers are up now"),
        KeyBinding([.character("/")], .filter, label: "Filter",
                   description: "Filter: fuzzy words (wb1), tag:web, web[01-20], db*, !name"),
        KeyBinding([.character("?"), .function(1)], .help, label: "Help", description: "This help"),
        KeyBinding([.character("q"), .function(10)], .quit, label: "Quit", description: "Quit eSSH"),
        KeyBinding([.character("t"), .function(8)], .shell, label: "Shell",
                   description: "Open a shell on the selected server (~. leaves it)"),
        KeyBinding([.character("s")], .settings, label: "Settings", description: "Settings"),
        KeyBinding([.character("u")], .tunnels, label: "Tunnels",
                   description: "Tunnels: saved port forwards, started, stopped and watched (they keep running)"),
        KeyBinding([.character("f")], .files, label: "Files",
                   description: "Files: the selected server's beside this machine's, to copy both ways"),
        KeyBinding([.character("x")], .runOnMarked, label: "Run",
                   description: "Run a command on the marked (or selected) servers"),
        KeyBinding([.character(" ")], .mark, label: "Mark", description: "Mark or unmark the selected server"),
        KeyBinding([.character("*")], .markAll, description: "Mark all shown (filter tag:web first); again: unmark"),
        KeyBinding([.up, .character("k")], .up, description: "Previous server"),
        KeyBinding([.down, .character("j")], .down, description: "Next server"),
        KeyBinding([.pageUp], .pageUp, description: "Page up"),
        KeyBinding([.pageDown], .pageDown, description: "Page down"),
        KeyBinding([.home, .character("g")], .first, description: "First server"),
        KeyBinding([.end, .character("G")], .last, description: "Last server"),
        KeyBinding([.escape], .clearFilter, description: "Clear the filter"),
        KeyBinding([.character("o")], .cycleOrder,
                   description: "Sort by name, by status (online and fastest first) or by last connected: each press "
                       + "the next (kept)"),
        KeyBinding([.character("T")], .toggleGroups,
                   description: "Group the servers under their tags, or not (kept); Enter on a group folds it"),
        KeyBinding([.left, .character("h")], .collapse, description: "Fold the selected server's group"),
        KeyBinding([.right, .character("l")], .expand, description: "Unfold the selected group"),
        KeyBinding([.character("L")], .lockVault,
                   description: "Lock the vault now: its key is dropped, the next stored secret asks for the passphrase"),
        KeyBinding([.character("I")], .installKey,
                   description: "Install your public key on the selected server (as essh key install); then offer to "
                       + "switch a password server to it"),
        KeyBinding([.character("m")], .toggleMouse,
                   description: "Mouse wheel on or off (kept). Off, the default: the terminal selects and copies "
                       + "text as usual; on: the wheel scrolls, and copying needs Shift"),
    ])
}
