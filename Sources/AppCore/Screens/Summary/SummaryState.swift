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
    /// Set when this summarises an interactive shell rather than a whole session.
    var shell: ShellSummary?
    /// Where the summary's back key goes: the servers, or the session the shell was opened from.
    var returnTo: Screen = .servers

    var keys: KeyBindingTable<SummaryAction> {
        if returnTo == .session { return SummaryAction.backToSessionTable }
        return unsaved == nil ? SummaryAction.table : SummaryAction.unsavedTable
    }
}
