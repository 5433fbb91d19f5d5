import Inventory
import TUIKit

/// What the end-of-session screen shows.
struct SummaryState: Sendable, Equatable {
    var title: String
    var seconds: Int
    var commands: Int
    /// Why the session ended when it was not the person's choice.
    var reason: String?
    /// The quick-connected host, ready to save (nil for a saved server).
    var unsaved: ServerDraft?

    var keys: KeyBindingTable<SummaryAction> { unsaved == nil ? SummaryAction.table : SummaryAction.unsavedTable }
}
