import TUIKit

/// What a key does on a form (other keys edit the focused field).
enum FormAction: Sendable, Equatable {
    case next, previous, save, cancel, help

    static let table = KeyBindingTable<FormAction>([
        KeyBinding([.enter, .function(2)], .save, label: "Save", description: "Save (Enter on any field)"),
        KeyBinding([.tab, .down], .next, label: "Next", description: "Next field"),
        KeyBinding([.backTab, .up], .previous, description: "Previous field"),
        KeyBinding([.escape], .cancel, label: "Cancel", description: "Leave without saving"),
        KeyBinding([.function(1), .alt("1")], .help, label: "Help", description: "This help"),
    ])
}
