import Foundation

/// What happened on one server of a fleet run. Output is kept as raw bytes (capped, see `FleetRunner`); text is made
/// only where it is shown, with invalid UTF-8 replaced.
public struct FleetResult: Sendable, Equatable {
    /// The server's name (a saved server's name, or the destination as typed).
    public var name: String
    public var status: FleetStatus
    /// The remote exit status (128+N when signal N killed the command); nil when the command never ended.
    public var exitStatus: Int32?
    /// Seconds from the start of this server's connect to its end.
    public var duration: Double
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    /// The sentence saying what went wrong (connect error, timeout, signal); nil when the command ran and exited.
    public var error: String?
    /// Whether output beyond the cap was dropped.
    public var truncated: Bool

    /// A result with nothing filled in yet.
    public init(name: String, status: FleetStatus, exitStatus: Int32? = nil, duration: Double = 0,
                stdout: [UInt8] = [], stderr: [UInt8] = [], error: String? = nil, truncated: Bool = false) {
        self.name = name
        self.status = status
        self.exitStatus = exitStatus
        self.duration = duration
        self.stdout = stdout
        self.stderr = stderr
        self.error = error
        self.truncated = truncated
    }

    /// stdout as text, invalid UTF-8 replaced (U+FFFD).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr as text, invalid UTF-8 replaced (U+FFFD).
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// `ok`, `failed (exit 2)`, `unreachable`: the status with the exit status when there is one.
    public var statusText: String {
        guard let exitStatus, status == .ok || status == .failed else { return status.label }
        return "\(status.label) (exit \(exitStatus))"
    }
}
