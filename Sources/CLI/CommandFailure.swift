import Basics

/// A command ending on a failure the command line itself found: the exit status (from the one table) and the
/// sentence `CommandEnding` prints as `essh: …`. Empty when the command already said everything (a check's table,
/// a fleet's summary), so the status alone ends it. Module errors need no wrapping: `ExitStatus(for:)` maps them.
struct CommandFailure: UserFacingError {
    /// How the command ends.
    let status: ExitStatus
    /// The sentence for the person; empty when there is nothing more to say.
    let message: String
    /// The underlying message, for `--verbose` and logs.
    let detail: String

    init(_ status: ExitStatus, _ message: String = "", detail: String = "") {
        self.status = status
        self.message = message
        self.detail = detail
    }
}
