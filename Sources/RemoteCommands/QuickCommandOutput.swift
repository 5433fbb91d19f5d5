import Basics
import NetParsers

/// What a quick command gave: the command that worked, its raw output, and what the parser read from it.
public struct QuickCommandOutput: Sendable {
    /// What was asked for.
    public var kind: DataKind
    /// The server's system the plan was chosen for (nil when the caller gave the plan itself; never `auto`).
    public var os: ServerOS?
    /// True when `os` was detected on this connection (the caller may store it), false when it was given.
    public var osWasDetected: Bool
    /// The command whose output this is.
    public var command: QuickCommand
    /// Its standard output, as received.
    public var stdout: [UInt8]
    /// Its standard error, as received.
    public var stderr: [UInt8]
    /// The commands tried before it, each with why it was passed over, in order.
    public var skipped: [SkippedCommand]
    /// The items read from `stdout`, or why it could not be read.
    public var parsed: Result<ParsedItems, NetParseError>
}

/// A command of a plan that was passed over, and why.
public struct SkippedCommand: Sendable, Equatable {
    /// The command line that ran.
    public var commandLine: String
    /// Why it was passed over: "not found", "exit 1: …", "output not recognised: …".
    public var reason: String

    /// A passed-over command and why.
    public init(commandLine: String, reason: String) {
        self.commandLine = commandLine
        self.reason = reason
    }
}
