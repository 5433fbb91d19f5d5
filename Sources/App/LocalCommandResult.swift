/// How a local command run with the terminal handed over ended.
enum LocalCommandResult: Sendable, Equatable {
    case exited(Int32)
    case signalled(Int32)
    /// It could not be started at all (no /bin/sh, out of processes); the sentence says why.
    case failedToStart(String)

    /// `exit 0`, `killed by signal 15`, or why it could not start.
    var summary: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signalled(let signal): return "killed by signal \(signal)"
        case .failedToStart(let reason): return reason
        }
    }
}
