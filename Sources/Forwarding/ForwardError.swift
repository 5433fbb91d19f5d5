import Basics
import SSH

/// Why a forward cannot start or stopped: a sentence naming the forward and the address.
public struct ForwardError: UserFacingError, Sendable {
    public enum Kind: String, Sendable {
        /// The forward's text is malformed.
        case badSpec = "bad-spec"
        /// The local address is taken by another program.
        case portInUse = "port-in-use"
        /// The local address cannot be bound for another reason (not this machine's, a privileged port, …).
        case bind
        /// The server refused a remote forward.
        case remoteRefused = "remote-refused"
        /// The connection to the server failed or was lost (see `ssh`).
        case connection
    }

    public let kind: Kind
    public let message: String
    public let detail: String
    /// The session's error behind a `.connection` or `.remoteRefused`.
    public let ssh: SSHError?

    public init(_ kind: Kind, _ message: String, detail: String = "", ssh: SSHError? = nil) {
        self.kind = kind
        self.message = message
        self.detail = detail
        self.ssh = ssh
    }
}
