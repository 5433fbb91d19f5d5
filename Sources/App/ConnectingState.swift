import Foundation

/// A connection being made: what to, the stage reached, and where to go back to if it fails.
struct ConnectingState: Sendable, Equatable {
    var target: ConnectTarget
    var stage: String
    var startedAt: Date
    var returnTo: Screen
}
