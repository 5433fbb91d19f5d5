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
    static func fleetTargets(_ targets: [ConnectTarget], knownHosts: String, password: String?,
                             environment: [String: String], localUser: String) -> [FleetTarget] {
        targets.map { target -> FleetTarget in
            // The same options a connection from the Servers screen uses.
            var (options, problem) = SessionWorker.connectOptions(target, knownHosts: knownHosts,
                                                                  environment: environment, localUser: localUser)
            let name = target.name ?? target.host
            guard target.auth == .password else {
                // The password asked before the run goes only to the servers saved as logging in with one: a
                // server meant to take a key or the agent never sees it, whatever login methods it offers.
                options.allowPassword = false
                options.allowKeyboardInteractive = false
                return FleetTarget(name: name, options: options, prompter: NonInteractivePrompter(), problem: problem)
            }
            guard let password else {
                return FleetTarget(name: name, options: options,
                                   problem: "This server logs in with a password and none was given.")
            }
            // Nothing else is asked (an unknown host key is refused: FleetTarget).
            return FleetTarget(name: name, options: options, prompter: NonInteractivePrompter(password: password),
                               problem: problem)
        }
    }

    // MARK: runs

    func run(id: Int, targets: [ConnectTarget], command: String, knownHosts: String, parallel: Int,
             timeout: Double, password: String?) {
        let fleetTargets = Self.fleetTargets(targets, knownHosts: knownHosts, password: password,
                                             environment: environment, localUser: localUser)
        let fits = FleetRunner.parallel(parallel, openFiles: FileDescriptorLimit.raiseToHard())
        let runner = FleetRunner(executor: executor, options: .init(parallel: fits, timeout: timeout))
        runners.withLock { $0[ObjectIdentifier(runner)] = runner }
        let thread = Thread { [self] in
            _ = runner.run(fleetTargets, command: command,
                           onStart: { [self] index in post(.fleetStarted(id: id, index: index)) },
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
}
