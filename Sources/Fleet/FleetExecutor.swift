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

    /// The same, within a run whose targets share `jumps` (the run's bastion sessions, one per distinct jump chain,
    /// closed by the runner when the run ends). `FleetRunner` calls this one; by default it ignores the pool.
    func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                 cancel: Cancellation, jumps: JumpPool, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(FleetFailure) -> CommandExit
}

extension FleetExecutor {
    /// Executors that reach no jump host through a shared session (test fakes) run the target as without a pool.
    public func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                        cancel: Cancellation, jumps: JumpPool,
                        output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void) throws(FleetFailure) -> CommandExit {
        try execute(target, command: command, connectTimeout: connectTimeout, deadline: deadline, cancel: cancel,
                    output: output)
    }

}

/// An executor that reaches jump hosts through a run's `JumpPool` (it implements the `jumps:` call). Called outside a
/// run, it makes a pool of its own for the one target, closed when the target is done.
public protocol JumpPoolExecutor: FleetExecutor {}

extension JumpPoolExecutor {
    public func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                        cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(FleetFailure) -> CommandExit
    {
        let jumps = JumpPool()
        defer { jumps.close() }
        return try execute(target, command: command, connectTimeout: connectTimeout, deadline: deadline,
                           cancel: cancel, jumps: jumps, output: output)
    }
}

extension FleetExecutor {
    /// A target's options with the connect timeout the runner gives it, and — when it is reached through jump
    /// hosts — the relay on its last jump host from `jumps` (connected by the first target that needs it).
    func route(_ target: FleetTarget, connectTimeout: Double, deadline: Date, cancel: Cancellation,
               jumps: JumpPool) throws(SSHError) -> (ConnectOptions, ChannelRelay?) {
        var options = target.options
        options.connectTimeout = min(options.connectTimeout, connectTimeout)
        guard !options.jumps.isEmpty else { return (options, nil) }
        let relay = try jumps.relay(for: options, prompter: target.prompter, deadline: deadline, cancel: cancel)
        return (options, relay)
    }
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
