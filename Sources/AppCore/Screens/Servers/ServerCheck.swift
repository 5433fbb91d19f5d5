import Basics
import Foundation

/// The last known reachability of a saved server, as the Servers screen shows it.
struct ServerCheck: Sendable, Equatable {
    /// What the last check found.
    var status: CheckStatus
    var latencyMs: Double?
    var checkedAt: Date?
}
