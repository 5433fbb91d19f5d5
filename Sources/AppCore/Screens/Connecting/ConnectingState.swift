import Operations
import Foundation

/// A connection being made: what to, the stage reached, and where to go back to if it fails.
struct ConnectingState: Sendable, Equatable {
    var target: ConnectionProfile
    var stage: String
    var startedAt: Date
    var returnTo: Screen
    /// Open an interactive shell as soon as the session is up (the servers screen's shell key).
    var openShell = false
}
