import TUIKit

/// What a key does in the demo; the table below drives dispatch, the key bar and the help screen.
enum DemoAction: Sendable {
    case selectUp, selectDown, scrollUp, scrollDown, oldest, newest, run, search, nextMatch, child, help, quit

    static let table = KeyBindingTable<DemoAction>([
        KeyBinding([.up], .selectUp, description: "Select the previous server"),
        KeyBinding([.down], .selectDown, description: "Select the next server"),
        KeyBinding([.pageUp], .scrollUp, label: "Scroll", description: "Scroll the output up a page"),
        KeyBinding([.pageDown], .scrollDown, description: "Scroll the output down a page"),
        KeyBinding([.function(5)], .oldest, description: "Jump to the oldest output line"),
        KeyBinding([.function(6)], .newest, description: "Jump to the newest output line and follow it"),
        KeyBinding([.enter], .run, label: "Echo", description: "Echo the typed text into the output"),
        KeyBinding([.ctrl("f")], .search, label: "Find", description: "Find the typed text in the output"),
        KeyBinding([.function(3)], .nextMatch, label: "Next", description: "Go to the previous (older) match"),
        KeyBinding([.function(4)], .child, label: "Child", description: "Hand the terminal to a child and back"),
        KeyBinding([.function(1)], .help, label: "Help", description: "Show or hide this help"),
        KeyBinding([.function(10), .ctrl("c")], .quit, label: "Quit", description: "Leave the demo"),
    ])
}
