import Basics

/// Why the curses terminal could not start or keep going.
public struct CursesError: UserFacingError, Sendable {
    /// What went wrong.
    public enum Kind: Sendable {
        /// Standard input or output is not a terminal (a pipe, a file, a service).
        case notATerminal
        /// curses does not know the terminal type in TERM.
        case unknownTerminal
        /// The terminal type in TERM cannot move the cursor (`dumb`, `unknown`): a full screen cannot be drawn.
        case cannotDraw
        /// A system call failed (pipe, poll).
        case system
        /// The terminal went away (hang-up, closed input).
        case inputClosed
    }

    /// What went wrong.
    public let kind: Kind
    /// The underlying detail (errno text, TERM value); the sentence names it.
    public let detail: String

    /// An error.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// A sentence for the user saying what happened and what to do.
    public var message: String {
        switch kind {
        case .notATerminal:
            return "The full-screen interface needs a terminal, but \(detail) is not one. "
                + "Run essh from a terminal, or use its subcommands (essh --help) in scripts."
        case .unknownTerminal:
            return "The terminal type TERM=\(detail) is not known to ncurses. "
                + "Set TERM to a known type (for example TERM=xterm-256color) and try again."
        case .cannotDraw:
            return "The terminal type TERM=\(detail) cannot move the cursor, which the full-screen interface needs. "
                + "Run essh in a terminal that can (for example TERM=xterm-256color), or use its subcommands "
                + "(essh --help)."
        case .system:
            return "A system call needed by the terminal interface failed: \(detail)."
        case .inputClosed:
            return "The terminal closed (\(detail)); the interface stopped."
        }
    }
}
