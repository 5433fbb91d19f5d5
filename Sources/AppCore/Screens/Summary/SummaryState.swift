import Inventory
import TUIKit

/// What the end-of-session screen shows.
struct SummaryState: Sendable {
    var title: String
    var seconds: Int
    var commands: Int
    /// Why the session ended when it was not the person's choice.
    var reason: String?
    /// The quick-connected host, ready to save (nil for a saved server).
    var unsaved: ServerDraft?
    /// Set when this summarises an interactive shell rather than a whole session.
    var shell: ShellSummary?
    /// The session a shell was opened from, still open: the back key returns to it (nil: back to the servers).
    var session: SessionState?

    var keys: KeyBindingTable<SummaryAction> {
        if session != nil { return SummaryAction.backToSessionTable }
        return unsaved == nil ? SummaryAction.table : SummaryAction.unsavedTable
    }
}
