/// How an interactive shell ended, for the summary screen.
struct ShellSummary: Sendable, Equatable {
    /// The sentence saying how it ended (`The shell on web1 exited with status 3.`).
    var how: String
    /// `3`, `killed by signal KILL`, or nil when the shell gave none (connection lost, `~.`).
    var exitStatus: String?
    /// Whether the session went with it (connection lost, or opened only for the shell).
    var sessionEnded: Bool
}
