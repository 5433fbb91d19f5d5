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
        /// The other side answered, but not as an SSH server.
        case notSSH = "not-ssh"
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
        /// The server's SFTP subsystem refused an operation on a file (`sftpStatus` and `path` say which).
        case remoteFile = "remote-file"
    }

    /// What the person can do about it, as a value, so each front end says it in its own words: the command line
    /// names its options, the interface its keys and screens (`message` carries the command line's words).
    public enum Remedy: Sendable, Equatable {
        /// An unknown host key refused under the strict policy: check the fingerprint, then accept it once, which
        /// saves it in `knownHostsFile`.
        case confirmHostKey(knownHostsFile: String)
        /// The known_hosts file cannot be read or written: use another file, or fix this one.
        case otherKnownHostsFile
        /// The server takes a password, and none could be given (no password file, nobody to ask).
        case givePassword
        /// The command ran out of its time limit.
        case longerTimeout
        /// The handshake agreed on nothing, and these of the server's algorithms could be allowed. `sha1HostKey`:
        /// one of them is `ssh-rsa`, which signs with SHA-1.
        case allowAlgorithms([AllowedAlgorithm], sha1HostKey: Bool)

        /// The command line's words.
        public var commandLine: String {
            switch self {
            case .confirmHostKey(let file):
                return "Check the fingerprint with the server's administrator, then connect to it once with "
                    + "--host-key-policy ask (or accept-new) to save it in \(file)."
            case .otherKnownHostsFile:
                return "Give --known-hosts another file, or fix this one."
            case .givePassword:
                return "Give a password with --password-file FILE or run on a terminal to be asked."
            case .longerTimeout:
                return "Raise --timeout if it needs longer."
            case .allowAlgorithms(let allow, let sha1):
                let options = allow.map { "\($0.kind.option) +\($0.name)" }.joined(separator: " ")
                let fields = allow.map(\.kind.keyword).joined(separator: " and ")
                return "If you trust this device, allow \(allow.count == 1 ? "one" : "them") with \(options)"
                    + (sha1 ? " (ssh-rsa signs with SHA-1, which OpenSSH refuses since 8.8)" : "")
                    + " (or the server's \(fields) field\(allow.count == 1 ? "" : "s"))."
            }
        }
    }

    /// One algorithm of the server's that the person could allow, and the list it belongs to.
    public struct AllowedAlgorithm: Sendable, Equatable {
        public let kind: AlgorithmKind
        public let name: String

        public init(kind: AlgorithmKind, name: String) {
            self.kind = kind
            self.name = name
        }
    }

    public let kind: Kind
    /// The underlying message (libssh2's, or errno's), for logs and `--verbose`.
    public let detail: String
    /// What happened, complete on its own, without what to do about it (front ends add `remedy` in their words).
    public let situation: String
    /// What the person can do, when the SSH module knows; nil when `situation` says it all.
    public let remedy: Remedy?
    /// For `remoteFile`: the SFTP status the server answered (nil for other kinds).
    public let sftpStatus: SFTPStatus?
    /// For `remoteFile`: the path on the server (bytes, as the server spells it).
    public let path: [UInt8]?

    /// The sentence for the command line: what happened and what to do.
    public var message: String {
        remedy.map { situation + " " + $0.commandLine } ?? situation
    }

    public init(_ kind: Kind, _ detail: String, _ situation: String, remedy: Remedy? = nil,
                sftpStatus: SFTPStatus? = nil, path: [UInt8]? = nil) {
        self.kind = kind
        self.detail = detail
        self.situation = situation
        self.remedy = remedy
        self.sftpStatus = sftpStatus
        self.path = path
    }

    /// The same error with another underlying message.
    public func with(detail: String) -> SSHError {
        SSHError(kind, detail, situation, remedy: remedy, sftpStatus: sftpStatus, path: path)
    }
}
