import SSH

/// How an interactive shell ended, and how long it ran.
public struct ShellOutcome: Sendable, Equatable {
    /// Why it ended.
    public enum End: Sendable, Equatable {
        /// The remote shell ended by itself (`exit`, Ctrl-D, killed): its status or signal.
        case exited(CommandExit)
        /// The person typed `~.`.
        case escape
        /// The connection broke or the server stopped answering; the reason as a sentence.
        case connectionLost(String)
        /// A signal from outside (SIGTERM, SIGHUP, …) or a cancel ended it; the signal number when known.
        case interrupted(Int32?)
        /// The local terminal went away (end of input).
        case terminalClosed
        /// No shell could be started (the server refused a PTY or a shell, the connection was already gone).
        case failedToStart(String)
    }

    /// Why it ended.
    public var end: End
    /// Seconds from the shell's start to its end.
    public var duration: Double
    /// Whether what ran switched the terminal to the alternate screen (a full-screen program: its output is gone
    /// from the screen when it ends).
    public var usedAlternateScreen: Bool

    /// An outcome.
    public init(end: End, duration: Double, usedAlternateScreen: Bool = false) {
        self.end = end
        self.duration = duration
        self.usedAlternateScreen = usedAlternateScreen
    }

    /// The exit status a command-line tool reports, as ssh does: the remote status (128+N for a signal); 255
    /// when the connection was lost, ended with `~.`, or never started; 130 when interrupted (as `essh exec`).
    public var exitCode: Int32 {
        switch end {
        case .exited(let exit): return exit.exitCode
        case .interrupted: return 130
        case .escape, .connectionLost, .terminalClosed, .failedToStart: return 255
        }
    }

    /// Whether the session the shell ran on is gone too.
    public var connectionLost: Bool {
        if case .connectionLost = end { return true }
        return false
    }

    /// One sentence on how it ended, for the person (`host` names the server).
    public func sentence(host: String) -> String {
        switch end {
        case .exited(let exit):
            if let signal = exit.signal { return "The shell on \(host) was killed by signal \(signal)." }
            if let status = exit.status { return "The shell on \(host) exited with status \(status)." }
            return "The shell on \(host) ended without an exit status."
        case .escape: return "Disconnected from the shell on \(host) (~.)."
        case .connectionLost(let reason): return "The connection to \(host) was lost. \(reason)"
        case .interrupted(let signal):
            let name = signal.map { " by signal \($0)" } ?? ""
            return "The shell on \(host) was interrupted\(name)."
        case .terminalClosed: return "The terminal closed, so the shell on \(host) was ended."
        case .failedToStart(let reason): return "No shell could be started on \(host). \(reason)"
        }
    }
}
