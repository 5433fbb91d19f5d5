import Foundation
import SSH

/// The real executor: one SSH session per target, opened, used for the one job, and closed. Each call runs on
/// its own worker thread, so every libssh2 session is used by one thread only. A target behind jump hosts runs over
/// a channel of the run's bastion session for its chain (`JumpPool`), which only its relay's thread uses.
public struct SSHFleetExecutor: JumpPoolExecutor {
    /// What is done on a target's open session: by default the command is run (`runCommand`); `essh net` runs its
    /// quick commands instead, so connecting, deadlines, parallelism and statuses stay those of every fleet run.
    /// Given the target, its session, the command, the seconds left before the target's deadline, the
    /// cancellation (fired at the deadline or on `cancel()`) and where output goes.
    public typealias Work = @Sendable (_ target: FleetTarget, _ session: SSHSession, _ command: String,
                                       _ timeout: Double, _ cancel: Cancellation,
                                       _ output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(SSHError) -> CommandExit

    /// Runs the command, streaming its output.
    public static let runCommand: Work = { _, session, command, timeout, cancel, output throws(SSHError) in
        try session.run(command, timeout: timeout, cancel: cancel, output: output)
    }

    private let work: Work

    /// An executor that does `work` on each target's session.
    public init(work: @escaping Work = SSHFleetExecutor.runCommand) {
        self.work = work
    }

    /// Behind jump hosts, the target's session runs over a channel of the run's shared bastion session.
    public func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                        cancel: Cancellation, jumps: JumpPool,
                        output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void) throws(FleetFailure) -> CommandExit
    {
        let session: SSHSession
        do throws(SSHError) {
            let (options, relay) = try route(target, connectTimeout: connectTimeout, deadline: deadline,
                                             cancel: cancel, jumps: jumps)
            if let relay {
                session = try SSHSession.connect(options, through: relay, prompter: target.prompter, cancel: cancel)
            } else {
                session = try SSHSession.connect(options, prompter: target.prompter, cancel: cancel)
            }
        } catch {
            throw FleetFailure(.connect, error)
        }
        defer { session.disconnect() }
        target.onLogin?(session.loginIdentity)
        do throws(SSHError) {
            // What is left of the target's time once connected.
            let timeout = max(0.001, deadline.timeIntervalSinceNow)
            return try work(target, session, command, timeout, cancel, output)
        } catch {
            throw FleetFailure(.command, error)
        }
    }
}
