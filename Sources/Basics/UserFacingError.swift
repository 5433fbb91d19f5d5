/// The one shape of an error a person reads: a sentence saying what happened and what to do, complete on its own (it
/// names the file, the server, errno's words where they help), and the underlying message (libssh2's, SQLite's) for
/// logs and `--verbose`. Each module keeps its own error type with its own
/// `kind` for callers that act on it (NIOSSHError's and GRDB's habit); this is what lets both front ends print any of
/// them one way (`UserFacing.sentence`) and the command line map any of them to its exit status.
public protocol UserFacingError: Error, CustomStringConvertible {
    /// The sentence for the person: what happened and what to do.
    var message: String { get }
    /// The underlying message, empty when there is none.
    var detail: String { get }
}

extension UserFacingError {
    /// No underlying message.
    public var detail: String { "" }

    /// The message, with the underlying detail in parentheses when it adds something.
    public var description: String {
        detail.isEmpty || message.contains(detail) ? message : "\(message) (\(detail))"
    }
}

/// Any error as a person reads it, in one place: a `UserFacingError` as itself, a Foundation or POSIX file error as a
/// `FileSystemError` naming the path (never `Error Domain=NSCocoaErrorDomain Code=…`), anything else as its own
/// description.
public enum UserFacing {
    /// `error` as a `UserFacingError`.
    public static func error(_ error: any Error) -> any UserFacingError {
        if let error = error as? any UserFacingError { return error }
        if let error = FileSystemError(error) { return error }
        return UnexpectedError(error)
    }

    /// The sentence for `error`, as both front ends show it (`essh: …` on stderr, the interface's dialogs); the
    /// detail stays for logs and `--verbose`.
    public static func sentence(_ error: any Error) -> String {
        self.error(error).message
    }
}

/// An error no module turned into a sentence: its own description, or Foundation's localized text for an NSError
/// (whose description would be the domain dump).
struct UnexpectedError: UserFacingError {
    let message: String

    init(_ error: any Error) {
        if let foundation = FoundationErrorFields(error) {
            message = foundation.localizedDescription
        } else {
            message = String(describing: error)
        }
    }
}
