import Basics

/// Every failure of the Mail module: what kind it is, the underlying message (sendmail's stderr, errno), and a
/// sentence a person understands that says what to do.
public struct MailError: UserFacingError, Sendable, Equatable {
    /// What went wrong, for callers that act on it (exit codes, whether queuing can help).
    public enum Kind: String, Sendable {
        /// An address that is not `local@domain` or a local user name.
        case invalidAddress = "invalid-address"
        /// A newline or other control character in a header field (To, Subject, From).
        case headerInjection = "header-injection"
        /// The sendmail program does not exist or cannot be run.
        case sendmailMissing = "sendmail-missing"
        /// sendmail ran and refused the message (non-zero exit, killed, or too slow).
        case sendmailFailed = "sendmail-failed"
        /// Reading or writing a local file failed.
        case io
    }

    /// What went wrong.
    public let kind: Kind
    /// The underlying message, for logs and the outbox.
    public let detail: String
    /// The sentence for the person: what happened and what to do.
    public let message: String

    /// Makes an error from its kind, the underlying message and the sentence for the person.
    public init(_ kind: Kind, _ detail: String, _ message: String) {
        self.kind = kind
        self.detail = detail
        self.message = message
    }
}
