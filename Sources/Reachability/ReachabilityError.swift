import Basics
import Foundation

/// Every failure of the Reachability module as a whole (a single server being down is a `CheckStatus`, not an
/// error): what kind it is, the underlying system message, and a sentence for the person.
public struct ReachabilityError: UserFacingError, Sendable {
    /// What went wrong.
    public enum Kind: String, Sendable {
        case eventLoop = "event-loop"
        case invalidOption = "invalid-option"
    }

    /// What went wrong.
    public let kind: Kind
    /// The underlying message (errno's).
    public let detail: String
    /// The sentence for the person.
    public let message: String

    /// Makes an error.
    public init(_ kind: Kind, _ detail: String, _ message: String) {
        self.kind = kind
        self.detail = detail
        self.message = message
    }

    /// A system call of the check loop failed with the current errno: `what` (no full stop), errno's words, and what
    /// to try.
    static func eventLoop(_ what: String) -> ReachabilityError {
        let reason = String(cString: strerror(errno))
        return ReachabilityError(.eventLoop, reason, "\(what): \(reason). Check fewer servers at once "
                                 + "or raise the open-file limit (ulimit -n), and try again.")
    }
}

