import LocalProcess

/// How a local command run with the terminal handed over ended.
package enum LocalCommandResult: Sendable, Equatable {
    /// It ran and ended (exited, or was killed by a signal).
    case finished(ChildProcess.Status)
    /// It could not be started at all (no /bin/sh, out of processes); the sentence says why.
    case failedToStart(String)

    /// `exit 0`, `killed by signal 15`, or why it could not start.
    package var summary: String {
        switch self {
        case .finished(.exited(let code)): return "exit \(code)"
        case .finished(.signalled(let signal)): return "killed by signal \(signal)"
        case .failedToStart(let reason): return reason
        }
    }
}
