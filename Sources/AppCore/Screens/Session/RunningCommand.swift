import Foundation
import NetParsers

/// The command running on the session's channel.
struct RunningCommand: Sendable, Equatable {
    var id: Int
    var command: String
    var startedAt: Date
    /// Set for F2/F3/F4: the output is parsed into a table when it ends.
    var quick: DataKind?
}
