import Fleet
import Foundation
import Reachability
import SSH

/// Fleet runs: `FleetRunner` on a thread of its own (it starts one worker thread per parallel slot, each with its
/// own SSH session), never on the session's SSH queue, so a run and an open session do not wait for each other.
extension EffectRunner {
    func runFleet(id: Int, targets: [ConnectTarget], command: String, knownHosts: String, parallel: Int,
                  timeout: Double, password: String?) {
        let fleetTargets = targets.map { target -> FleetTarget in
            // The same options a connection from the Servers screen uses.
            var (options, problem) = connectOptions(target, knownHosts: knownHosts)
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
        let fits = FleetRunner.parallel(parallel, openFiles: FileDescriptorLimit.raiseToHard())
        let runner = FleetRunner(options: .init(parallel: fits, timeout: timeout))
        fleetJobs.start(runner)
        let thread = Thread { [self] in
            _ = runner.run(fleetTargets, command: command,
                           onStart: { [self] index in post(.fleetStarted(id: id, index: index)) },
                           onFinish: { [self] index, result in post(.fleetResult(id: id, index: index, result)) })
            fleetJobs.finished(runner)
            post(.fleetFinished(id: id, at: Date()))
        }
        thread.start()
    }
}

/// The fleet runs in progress, so Esc (or quitting) can cancel them from the UI thread.
final class FleetJobs: @unchecked Sendable {
    private let lock = NSLock()
    private var runners: [ObjectIdentifier: FleetRunner] = [:]

    func start(_ runner: FleetRunner) {
        lock.lock()
        runners[ObjectIdentifier(runner)] = runner
        lock.unlock()
    }

    func finished(_ runner: FleetRunner) {
        lock.lock()
        runners[ObjectIdentifier(runner)] = nil
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        let all = Array(runners.values)
        lock.unlock()
        for runner in all { runner.cancel() }
    }
}
