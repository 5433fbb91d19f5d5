import Basics

/// Why the interactive shell could not start on this terminal (not a terminal, no raw mode, no signal pipe).
public struct ShellError: UserFacingError, Sendable, Equatable {
    /// The sentence for the person.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
}
