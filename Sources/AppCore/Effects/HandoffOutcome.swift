import InteractiveShell

/// How a `Handoff` ended, for the status line.
package enum HandoffOutcome: Sendable, Equatable {
    case piped(command: String, result: LocalCommandResult)
    case shell(ShellOutcome)
}
