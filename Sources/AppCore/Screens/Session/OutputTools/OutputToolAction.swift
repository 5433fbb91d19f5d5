import TUIKit

/// What a key does in the mail, save or pipe form (F6, F7, `|`, F6 on the fleet results); other keys edit the
/// focused field.
enum OutputToolAction: Sendable, Equatable {
    case submit, cancel, nextField, previousField, toggleTable

    static let table = KeyBindingTable<OutputToolAction>([
        KeyBinding([.enter], .submit, description: "Send the mail, save the file or run the command"),
        KeyBinding([.escape], .cancel, description: "Close the form"),
        KeyBinding([.tab, .down], .nextField, description: "Next field"),
        KeyBinding([.backTab, .up], .previousField, description: "Previous field"),
        KeyBinding([.function(5), .alt("5")], .toggleTable, description: "Mail the parsed table or the raw output"),
    ])
}
