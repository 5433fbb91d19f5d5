/// A modal question or message over the current screen.
struct DialogState: Sendable, Equatable {
    enum Purpose: Sendable, Equatable {
        /// Delete the saved server with this name?
        case confirmDelete(String)
        /// Trust this host key? (the prompt id)
        case hostKey(Int)
        /// A message to acknowledge.
        case notice
    }

    var purpose: Purpose
    var title: String
    var message: String
    var buttons: [String]
    var selected = 0
    /// The first line of the message shown, when it is taller than the screen allows (↑ ↓ scroll it).
    var top = 0
}
