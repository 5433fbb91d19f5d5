import Foundation

/// The last known reachability of a saved server, as the Servers screen shows it.
struct ServerCheck: Sendable, Equatable {
    /// Reachability's status (`online`, `refused`, `timeout`, …), or `checking` while a check runs.
    var status: String
    var latencyMs: Double?
    var checkedAt: Date?
}
