import Basics
import Foundation
import SSH

/// Connects to one target and runs the command there. `FleetRunner` calls it from its worker threads, one target per
/// call; the real one is `SSHFleetExecutor`, unit tests give the runner a fake.
public protocol FleetExecutor: Sendable {
    /// Connects (waiting at most `connectTimeout` per network step) and runs `command` until `deadline` (what is left
    /// of the target's time once connected), streaming output to `output`; `cancel` stops either at once. Returns
    /// how the command ended or throws which phase failed and why.
    func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                 cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(FleetFailure) -> CommandExit
}

/// Why one target's attempt failed, and in which phase.
public struct FleetFailure: UserFacingError, Sendable {
    /// Connecting and logging in, or running the command.
    public enum Phase: Sendable, Equatable { case connect, command }

    public var phase: Phase
    public var error: SSHError

    public init(_ phase: Phase, _ error: SSHError) {
        self.phase = phase
        self.error = error
    }

    /// The session's sentence.
    public var message: String { error.message }
    /// The session's underlying message.
    public var detail: String { error.detail }
}
