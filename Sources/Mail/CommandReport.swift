import Foundation

/// What the status block at the top of a mailed output says: where and what ran, how it ended, when and how long.
public struct CommandReport: Sendable, Equatable {
    /// The server as the person knows it (a saved name, or host[:port]).
    public var server: String
    /// The user logged in on it.
    public var user: String
    /// The command line as typed.
    public var command: String
    /// The exit status, when the command ended by itself.
    public var exitStatus: Int32?
    /// The signal that killed it, when one did (`TERM`, `KILL`, or a number).
    public var signal: String?
    /// Why it has neither (stopped by a timeout, interrupted, the connection lost), in words.
    public var unfinished: String?
    /// When it started.
    public var startedAt: Date
    /// How long it ran, in seconds.
    public var duration: TimeInterval

    /// A report of one finished (or stopped) command.
    public init(server: String, user: String, command: String, exitStatus: Int32?, signal: String? = nil,
                unfinished: String? = nil, startedAt: Date, duration: TimeInterval) {
        self.server = server
        self.user = user
        self.command = command
        self.exitStatus = exitStatus
        self.signal = signal
        self.unfinished = unfinished
        self.startedAt = startedAt
        self.duration = duration
    }

    /// `essh: COMMAND on SERVER`, with control characters of the command and of the server's name shown as spaces
    /// (a subject is one line; a name saved before names were checked must not make every mail fail).
    public var defaultSubject: String {
        let line = HeaderSafety.oneLine(command)
        let short = line.count > 120 ? String(line.prefix(119)) + "…" : line
        return "essh: \(short) on \(HeaderSafety.oneLine(server))"
    }

    /// How the command ended, in words.
    public var outcome: String {
        if let signal { return "killed by signal \(signal)" }
        if let exitStatus { return exitStatus == 0 ? "0 (success)" : "\(exitStatus) (failure)" }
        return "unknown (the command did not finish\(unfinished.map { ": " + $0 } ?? ""))"
    }

    /// The block's lines, each ending in "\n", then an empty line.
    public func block(timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let rows = [
            ("Server", server), ("User", user), ("Command", command), ("Exit status", outcome),
            ("Started", formatter.string(from: startedAt)), ("Duration", Self.seconds(duration)),
        ]
        return rows.map { "\($0.0):\(String(repeating: " ", count: 12 - $0.0.count))\($0.1)\n" }.joined() + "\n"
    }

    static func seconds(_ value: TimeInterval) -> String {
        value < 60 ? String(format: "%.3f s", value) : String(format: "%.0f s (%dm %02ds)", value,
                                                               Int(value) / 60, Int(value) % 60)
    }
}
