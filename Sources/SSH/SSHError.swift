import Basics

/// Every failure of the SSH module: what kind it is, the underlying (libssh2 or system) message, and a sentence a
/// person understands that says what to do.
public struct SSHError: UserFacingError, Sendable {
    /// What went wrong, for callers that act on it (the CLI's exit code, the TUI's form).
    public enum Kind: String, Sendable {
        case nameNotFound = "name-not-found"
        case refused
        case timedOut = "timed-out"
        case unreachable
        case hostKeyUnknown = "host-key-unknown"
        case hostKeyChanged = "host-key-changed"
        case hostKeyRevoked = "host-key-revoked"
        case hostKeyRejected = "host-key-rejected"
        case authenticationFailed = "authentication-failed"
        case keyFile = "key-file"
        case disconnected
        case cancelled
        case commandTimedOut = "command-timed-out"
        case protocolError = "protocol"
        /// The handshake found no key exchange, host key algorithm, cipher or MAC both sides accept.
        case noCommonAlgorithm = "no-common-algorithm"
        case library
        case io
        case knownHostsFile = "known-hosts-file"
    }

    public let kind: Kind
    /// The underlying message (libssh2's, or errno's), for logs and `--verbose`.
    public let detail: String
    /// The sentence for the person: what happened and what to do.
    public let message: String

    public init(_ kind: Kind, _ detail: String, _ message: String) {
        self.kind = kind
        self.detail = detail
        self.message = message
    }
}
