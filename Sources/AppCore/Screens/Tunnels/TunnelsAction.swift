import TUIKit

/// What a key does on the Tunnels screen.
enum TunnelsAction: Sendable, Equatable {
    case up, down, first, last
    case toggle, start, stop, restart, add, edit, delete, autostart, back, help

    static let table = KeyBindingTable<TunnelsAction>([
        KeyBinding([.enter], .toggle, label: "Start/Stop", description: "Start the selected tunnel, or stop it"),
        KeyBinding([.character("s")], .start, label: "Start", description: "Start the selected tunnel"),
        KeyBinding([.character("x")], .stop, label: "Stop", description: "Stop the selected tunnel"),
        KeyBinding([.character("r")], .restart, label: "Restart",
                   description: "Restart the selected tunnel (a new session)"),
        KeyBinding([.character("a")], .add, label: "Add",
                   description: "Add a tunnel to a server: L:port:host:hostport, R:port:host:hostport or D:port"),
        KeyBinding([.character("e")], .edit, label: "Edit", description: "Edit the selected tunnel"),
        KeyBinding([.character("d"), .delete], .delete, label: "Del", description: "Delete the selected tunnel"),
        KeyBinding([.character("A")], .autostart,
                   description: "Autostart on or off for the selected tunnel's server (its tunnels start with eSSH)"),
        KeyBinding([.escape, .character("q")], .back, label: "Back",
                   description: "Back to the servers (the tunnels keep running)"),
        KeyBinding([.character("?"), .function(1)], .help, label: "Help", description: "This help"),
        KeyBinding([.up, .character("k")], .up, description: "Previous tunnel"),
        KeyBinding([.down, .character("j")], .down, description: "Next tunnel"),
        KeyBinding([.home, .character("g")], .first, description: "First tunnel"),
        KeyBinding([.end, .character("G")], .last, description: "Last tunnel"),
    ])
}

/// What a key does in the Tunnels screen's add / edit form.
enum TunnelEditorAction: Sendable, Equatable {
    case save, cancel, nextField

    static let table = KeyBindingTable<TunnelEditorAction>([
        KeyBinding([.enter], .save, label: "Save", description: "Save the tunnel (checked as ssh's -L/-R/-D)"),
        KeyBinding([.tab, .backTab, .up, .down], .nextField, description: "The other field"),
        KeyBinding([.escape], .cancel, label: "Cancel", description: "Back without saving"),
    ])
}
