import Basics
import NetParsers
import SSH

/// The one error type of RemoteCommands: what failed, the detail behind it, and a sentence for the person.
public struct RemoteCommandsError: UserFacingError, Sendable {
    /// What kind of failure this is.
    public enum Kind: String, Sendable {
        /// The session failed (disconnect, timeout, cancel): `ssh` holds the SSH module's error.
        case ssh
        /// No probe (`uname -s`, `ver`, `cmd /c ver`) named a system eSSH knows.
        case osNotDetected = "os-not-detected"
        /// Every command of the plan was missing or failed.
        case noCommandWorked = "no-command-worked"
        /// The plan held no command.
        case emptyPlan = "empty-plan"
    }

    /// The failure's kind.
    public let kind: Kind
    /// What each probe or command said, for logs and `--verbose`.
    public let detail: String
    /// The sentence for the person: what happened and what to do.
    public let message: String
    /// The session's error when `kind` is `.ssh`.
    public let ssh: SSHError?

    /// An error of the given kind.
    public init(_ kind: Kind, _ detail: String, _ message: String, ssh: SSHError? = nil) {
        self.kind = kind
        self.detail = detail
        self.message = message
        self.ssh = ssh
    }

    /// Wraps a session failure, keeping its sentence.
    init(_ error: SSHError) {
        self.init(.ssh, error.detail, error.message, ssh: error)
    }
}
