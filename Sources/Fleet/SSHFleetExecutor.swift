import Foundation
import SSH

/// The real executor: one SSH session per target, opened, used for the one command, and closed. Each call runs on
/// its own worker thread, so every libssh2 session is used by one thread only.
public struct SSHFleetExecutor: FleetExecutor {
    public init() {}

    public func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                        cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(FleetFailure) -> CommandExit
    {
        var options = target.options
        options.connectTimeout = min(options.connectTimeout, connectTimeout)
        let session: SSHSession
        do throws(SSHError) {
            session = try SSHSession.connect(options, prompter: target.prompter, cancel: cancel)
        } catch {
            throw FleetFailure(.connect, error)
        }
        defer { session.disconnect() }
        do throws(SSHError) {
            // What is left of the target's time once connected.
            let timeout = max(0.001, deadline.timeIntervalSinceNow)
            return try session.run(command, timeout: timeout, cancel: cancel, output: output)
        } catch {
            throw FleetFailure(.command, error)
        }
    }
}
