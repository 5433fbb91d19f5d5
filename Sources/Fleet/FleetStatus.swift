import Basics
import SSH

/// Where one server stands in a fleet run. The raw value is the one word for it in the text report, the JSON and the
/// interface; a word that `essh check` also prints (`refused`, `timed-out`, `unreachable`, `dns-error`, `not-ssh`)
/// means the same thing there (README, "Status words").
public enum FleetStatus: String, Sendable, Equatable, CaseIterable {
    /// Not started yet: every parallel slot is busy.
    case waiting
    /// Connecting or running the command.
    case running
    /// The command ran and exited 0.
    case ok
    /// The command ran and exited non-zero (or was killed by a signal), or the connection broke while it ran.
    case failed
    /// The server's time (connect plus command) ran out, or the connect timeout passed.
    case timedOut = "timed-out"
    /// The name did not resolve.
    case dnsError = "dns-error"
    /// The host answered that nothing listens on the port.
    case refused
    /// The network said the host cannot be reached.
    case unreachable
    /// The port answered, but not as an SSH server.
    case notSSH = "not-ssh"
    /// The server's host key is not in known_hosts (and the policy refused it).
    case hostKeyUnknown = "host-key-unknown"
    /// The server's host key differs from the one known_hosts holds for it.
    case hostKeyChanged = "host-key-changed"
    /// The server's host key is marked `@revoked` in known_hosts.
    case hostKeyRevoked = "host-key-revoked"
    /// The server refused every login method tried, or none could be tried (no password given).
    case authFailed = "auth-failed"
    /// Something on this side cannot be used: a key file, the known_hosts file, an algorithm list.
    case configError = "config-error"
    /// Connecting failed otherwise: the handshake, the connection closed before the login, no algorithm in common.
    case connectFailed = "connect-failed"
    /// The run was cancelled (Esc / Ctrl-C) before this server finished.
    case cancelled

    /// Finished, one way or another.
    public var isFinal: Bool { self != .waiting && self != .running }

    /// Whether the server was never logged in to: the command did not run.
    public var isConnectFailure: Bool {
        switch self {
        case .dnsError, .refused, .unreachable, .notSSH, .hostKeyUnknown, .hostKeyChanged, .hostKeyRevoked,
             .authFailed, .configError, .connectFailed:
            return true
        case .waiting, .running, .ok, .failed, .timedOut, .cancelled:
            return false
        }
    }

    /// The status of a connect or login that failed with `kind` (not a timeout or a cancel, which the run's deadline
    /// and cancel decide).
    public init(connectFailure kind: SSHError.Kind) {
        switch kind {
        case .nameNotFound: self = .dnsError
        case .refused: self = .refused
        case .unreachable: self = .unreachable
        case .timedOut: self = .timedOut
        case .notSSH: self = .notSSH
        case .hostKeyUnknown, .hostKeyRejected: self = .hostKeyUnknown
        case .hostKeyChanged: self = .hostKeyChanged
        case .hostKeyRevoked: self = .hostKeyRevoked
        case .authenticationFailed: self = .authFailed
        case .keyFile, .knownHostsFile: self = .configError
        case .cancelled: self = .cancelled
        case .disconnected, .protocolError, .noCommonAlgorithm, .library, .io, .commandTimedOut, .remoteFile:
            self = .connectFailed
        }
    }

    /// The word for people: the raw value, the same in the text report, the JSON and the interface.
    public var label: String { rawValue }
}
