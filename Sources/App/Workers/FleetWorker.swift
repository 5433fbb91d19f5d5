import Operations
import AppCore
import Fleet
import Foundation
import Reachability
import SSH
import Synchronization

/// Fleet runs: `FleetRunner` on a thread of its own (it starts one worker thread per parallel slot, each with its
/// own SSH session), never on the session's queue, so a run and an open session do not wait for each other.
final class FleetWorker: Sendable {
    private let post: @Sendable (Message) -> Void
    private let environment: [String: String]
    private let localUser: String
    private let executor: any FleetExecutor
    /// The runs in progress, so Esc (or quitting) can cancel them from the UI thread.
    private let runners = Mutex<[ObjectIdentifier: FleetRunner]>([:])
    /// Entered by each run's thread until it ends, so quitting can wait for cancelled runs to stop their servers'
    /// commands (`SSHSession.run` signals them before it returns).
    private let running = DispatchGroup()

    init(post: @escaping @Sendable (Message) -> Void, environment: [String: String], localUser: String,
         executor: any FleetExecutor = SSHFleetExecutor()) {
        self.post = post
        self.environment = environment
        self.localUser = localUser
        self.executor = executor
    }

    // MARK: policy (to be replaced by the shared operations layer)

    /// The servers of a run as fleet targets, with the connection options a connection from the Servers screen
    /// uses. The password asked before the run goes only to the servers saved as logging in with one.
    static func fleetTargets(_ targets: [ConnectionProfile], knownHosts: String, password: String?,
                             environment: [String: String], localUser: String) -> [FleetTarget] {
        let context = ConnectionProfile.Context(environment: environment, localUser: localUser,
                                                knownHostsSetting: knownHosts)
        // The same options a connection from the Servers screen uses; who gets the password is FleetTargets' rule.
        return targets.map { target in
            let options: Result<ConnectOptions, ConnectionProblem>
            do throws(ConnectionProblem) { options = .success(try target.options(context: context)) } catch {
                options = .failure(error)
            }
            return FleetTargets.target(target, name: target.name ?? target.host, options: options,
                                       password: FleetTargets.Password(password, fromFile: false),
                                       remedy: SessionWorker.remedy)
        }
    }

    // MARK: runs

    func run(id: Int, targets: [ConnectionProfile], command: String, knownHosts: String, parallel: Int,
             timeout: Double, password: String?) {
        let fleetTargets = Self.fleetTargets(targets, knownHosts: knownHosts, password: password,
                                             environment: environment, localUser: localUser)
        // The rule the command line uses; with no room for even one worker, the pool runs the servers on the
        // run's own thread, one at a time.
        let fits = max(1, FleetRunner.fit(parallel, openFiles: FileDescriptorLimit.raiseToHard()).parallel)
        let runner = FleetRunner(executor: executor, options: .init(parallel: fits, timeout: timeout))
        runners.withLock { $0[ObjectIdentifier(runner)] = runner }
        running.enter()
        let thread = Thread { [self] in
            defer { running.leave() }
            _ = runner.run(fleetTargets, command: command,
                           onStart: { [self] index in post(.fleetStarted(id: id, index: index)) },
                           onOutput: { [self] index, stream, bytes in
                               post(.fleetOutput(id: id, index: index, stream, Array(bytes)))
                           },
                           onFinish: { [self] index, result in post(.fleetResult(id: id, index: index, result)) })
            runners.withLock { $0[ObjectIdentifier(runner)] = nil }
            post(.fleetFinished(id: id, at: Date()))
        }
        thread.start()
    }

    /// Stops the servers of every run still running (what finished is kept).
    func cancel() {
        for runner in runners.withLock({ Array($0.values) }) { runner.cancel() }
    }

    /// Waits at most `seconds` for every run to end; true when none is left.
    @discardableResult
    func waitUntilIdle(seconds: Double) -> Bool {
        running.wait(timeout: .now() + seconds) == .success
    }
}
