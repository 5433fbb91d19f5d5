import Fleet
import SSH

/// What a fleet run does before it asks for its password: the servers that would receive it are connected to (in
/// parallel, under the run's limits), their host keys checked and the login methods they allow read, without
/// logging in (`PasswordLoginProbe`). A server whose key is unknown, changed or revoked, that cannot be reached, or
/// that allows no password login is decided here: that result is the run's for it and it is not tried again, so a
/// password is never typed for a server that would not be trusted or would not use it. The password is asked only
/// when a server is left (`Outcome.needsPassword`). Both front ends use it.
public final class FleetPasswordCheck: Sendable {
    /// What the check found.
    public struct Outcome: Sendable, Equatable {
        /// By the index of the picked server: what the run reports for it without trying it again.
        public var problems: [Int: FleetTarget.Problem]
        /// How many servers would receive the password and are still to be run with it.
        public var remaining: Int

        public init(problems: [Int: FleetTarget.Problem] = [:], remaining: Int = 0) {
            self.problems = problems
            self.remaining = remaining
        }

        /// Whether the password is worth asking for.
        public var needsPassword: Bool { remaining > 0 }
    }

    private let runner: FleetRunner

    /// A check run with the run's `options` (parallelism, time per server, how errors are phrased); `executor` is
    /// for tests.
    public init(options: FleetRunner.Options, executor: any FleetExecutor = PasswordLoginProbe()) {
        runner = FleetRunner(executor: executor, options: options)
    }

    /// Stops the check (from any thread); the servers not yet checked count as needing the password.
    public func cancel() { runner.cancel() }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { runner.isCancelled }

    /// Checks the servers among `profiles` that would receive an asked password (`FleetTargets.needsPassword`'s
    /// rule), with the options each would connect with (`options`, by the same index); servers whose options
    /// failed are left to the run, which reports their problem.
    public func run(_ profiles: [ConnectionProfile], names: [String],
                    options: [Result<ConnectOptions, ConnectionProblem>]) -> Outcome {
        var indices: [Int] = []
        var targets: [FleetTarget] = []
        for i in profiles.indices where FleetTargets.receivesAskedPassword(profiles[i]) {
            guard case .success(let connect) = options[i] else { continue }
            indices.append(i)
            targets.append(FleetTarget(name: names[i], options: connect))
        }
        guard !targets.isEmpty else { return Outcome() }
        let results = runner.run(targets, command: "")
        var outcome = Outcome()
        for (i, result) in zip(indices, results) {
            switch result.status {
            case .ok:
                outcome.remaining += 1
            case .cancelled:
                // Not checked: the run tries it (with the password) as if there had been no check.
                outcome.remaining += 1
            default:
                outcome.problems[i] = FleetTarget.Problem(result.status, result.error ?? result.status.label)
            }
        }
        return outcome
    }
}
