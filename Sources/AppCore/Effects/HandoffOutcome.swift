import InteractiveShell

/// How a `Handoff` ended, for the status line.
package enum HandoffOutcome: Sendable, Equatable {
    case piped(command: String, result: LocalCommandResult)
    case shell(ShellOutcome)
    /// How a command run on a terminal (`Handoff.terminal`) ended; `line` as typed.
    case terminal(line: String, ShellOutcome)
}
