/// Where one server stands in a fleet run.
public enum FleetStatus: String, Sendable, Equatable, CaseIterable {
    /// Not started yet: every parallel slot is busy.
    case waiting
    /// Connecting or running the command.
    case running
    /// The command ran and exited 0.
    case ok
    /// The command ran and exited non-zero (or was killed by a signal), or the connection broke while it ran.
    case failed
    /// The server's time (connect plus command) ran out.
    case timedOut = "timed-out"
    /// Connecting or logging in failed (refused, no route, unknown host key, authentication, …).
    case unreachable
    /// The run was cancelled (Esc / Ctrl-C) before this server finished.
    case cancelled

    /// Finished, one way or another.
    public var isFinal: Bool { self != .waiting && self != .running }

    /// Words for people (`timed out`).
    public var label: String { self == .timedOut ? "timed out" : rawValue }
}
