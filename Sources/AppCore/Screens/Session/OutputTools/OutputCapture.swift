import Basics
import Operations
import Foundation
import NetParsers

/// The last command's output exactly as it arrived (before sanitising), and how the command ended: what F6 mails,
/// F7 saves and `|` pipes. Kept apart from the scrollback, which holds sanitised lines of every command.
struct OutputCapture: Sendable, Equatable {
    /// Bytes kept at most; beyond them the capture only counts (the scrollback still shows everything it keeps).
    static let limit = 64 << 20

    var commandId: Int
    var command: String
    var startedAt: Date
    var kept = CappedBytes(limit: OutputCapture.limit)
    var finishedAt: Date?
    var status: Int32?
    var signal: String?
    /// Why it ended without a status (connection lost, cancelled).
    var failure: String?
    /// For F2/F3/F4: the quick command's kind (its table is the session's `quick`).
    var quick: DataKind?

    /// The output kept so far.
    var bytes: [UInt8] { kept.bytes }
    /// Bytes that arrived beyond `limit`.
    var cut: Int { kept.cut }

    mutating func append(_ chunk: [UInt8]) { kept.append(chunk) }

    /// The output with a closing note when some of it was not kept.
    var keptBytes: [UInt8] {
        cut == 0 ? bytes : bytes + Array("\n[essh: \(cut) more bytes were not kept]\n".utf8)
    }
}
