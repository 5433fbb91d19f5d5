import Basics
import Foundation
import SSH

/// The executor of the check a fleet run makes before it asks for a password: it connects to each target, verifies
/// the host key under the target's policy, asks which login methods the server allows, and leaves without logging
/// in (`SSHSession.loginMethods`). A target that takes a password (or keyboard-interactive) ends `ok`; one that
/// takes neither fails as `auth-failed`, so no password is asked for it; an unknown host key, a refused connection
/// and the like end with their own status, as they would in the run. Run through a `FleetRunner`, so deadlines,
/// parallelism and cancelling are the run's.
public struct PasswordLoginProbe: JumpPoolExecutor {
    /// A probe.
    public init() {}

    /// Behind jump hosts, through the check's shared bastion session, so the check costs one bastion login too.
    public func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                        cancel: Cancellation, jumps: JumpPool,
                        output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void) throws(FleetFailure) -> CommandExit
    {
        let methods: [String]?
        let options: ConnectOptions
        do throws(SSHError) {
            let (routed, relay) = try route(target, connectTimeout: connectTimeout, deadline: deadline,
                                            cancel: cancel, jumps: jumps)
            options = routed
            if let relay {
                methods = try SSHSession.loginMethods(options, through: relay, cancel: cancel)
            } else {
                methods = try SSHSession.loginMethods(options, cancel: cancel)
            }
        } catch {
            throw FleetFailure(.connect, error)
        }
        guard let methods else { return CommandExit(status: 0, signal: nil) }
        if let refusal = Self.refusal(methods, user: options.user, host: options.host) {
            throw FleetFailure(.connect, SSHError(.authenticationFailed, "allowed: " + methods.joined(separator: ","),
                                                  refusal))
        }
        return CommandExit(status: 0, signal: nil)
    }

    /// Why a password would not be used with a server allowing `methods`; nil when it would.
    public static func refusal(_ methods: [String], user: String, host: String) -> String? {
        if methods.contains("password") || methods.contains("keyboard-interactive") { return nil }
        return "\(host) allows \(user) no password login (only \(methods.joined(separator: ", "))), "
            + "so the password was not asked for it."
    }
}
