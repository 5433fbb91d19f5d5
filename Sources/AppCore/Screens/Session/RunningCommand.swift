import Foundation
import NetParsers

/// The command running on the session's channel.
package struct RunningCommand: Sendable, Equatable {
    var id: Int
    var command: String
    var startedAt: Date
    /// Set for F2/F3/F4: the output is parsed into a table when it ends.
    var quick: DataKind?
    /// The key that asked to stop it (`Esc`, `^C`), for its result line.
    var stoppedWith: String?

    /// What the session worker says of a command it stopped when asked (the result line names the key).
    package static let stopped = "stopped (Esc)"
}
