import TUIKit

/// What a key does on the Fleet results screen.
enum FleetAction: Sendable, Equatable {
    case up, down, open, back, pageUp, pageDown, top, bottom, left, right, mail, help

    static let table = KeyBindingTable<FleetAction>([
        KeyBinding([.enter], .open, label: "Output", description: "The selected server's full output"),
        KeyBinding([.escape], .back, label: "Stop/Back",
                   description: "Stop the servers still running; again (or when all are done), back to the servers"),
        KeyBinding([.function(6), .alt("6")], .mail, label: "Mail",
                   description: "Mail the whole report: one row per server, then the grouped output"),
        KeyBinding([.function(1), .character("?")], .help, label: "Help", description: "This help"),
        KeyBinding([.up, .character("k")], .up, description: "Previous server"),
        KeyBinding([.down, .character("j")], .down, description: "Next server"),
        KeyBinding([.pageUp], .pageUp, description: "Scroll the output up"),
        KeyBinding([.pageDown], .pageDown, description: "Scroll the output down"),
        KeyBinding([.home], .top, description: "Start of the output"),
        KeyBinding([.end], .bottom, description: "End of the output"),
        KeyBinding([.left, .character("h")], .left, description: "Scroll the output left (long lines are not wrapped)"),
        KeyBinding([.right, .character("l")], .right, description: "Scroll the output right"),
    ])
}
