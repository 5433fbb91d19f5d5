import Operations
import AppCore
import Fleet
import Foundation
import Inventory
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
    /// The executor of the check before a password (a fake in tests).
    private let checkExecutor: any FleetExecutor
    /// The runs in progress, so Esc (or quitting) can cancel them from the UI thread.
    private let runners = Mutex<[ObjectIdentifier: FleetRunner]>([:])
    /// The checks before a password in progress, likewise.
    private let checks = Mutex<[ObjectIdentifier: FleetPasswordCheck]>([:])
    /// Entered by each run's thread until it ends, so quitting can wait for cancelled runs to stop their servers'
    /// commands (`SSHSession.run` signals them before it returns).
    private let running = DispatchGroup()

    /// Saved servers by name, for jump hosts naming one.
    private let savedServer: (@Sendable (String) throws -> Server?)?
    /// The team's pinned host keys of a host and port (`TeamPins.lookup`), for every hop; nil: none.
    private let hostKeyPins: TeamPins.Lookup?
    /// The vault's secrets for runs (`InterfaceSecrets.sibling(forRuns: true)`; nil: no vault wired in).
    private let secrets: InterfaceSecrets?
    /// Where the key that logged in to each saved server is remembered (`IdentityMemory`); nil: nowhere.
    private let inventory: Inventory?

    init(post: @escaping @Sendable (Message) -> Void, environment: [String: String], localUser: String,
         savedServer: (@Sendable (String) throws -> Server?)? = nil, hostKeyPins: TeamPins.Lookup? = nil,
         secrets: InterfaceSecrets? = nil,
         inventory: Inventory? = nil,
         executor: any FleetExecutor = SSHFleetExecutor(), checkExecutor: any FleetExecutor = PasswordLoginProbe()) {
        self.post = post
        self.savedServer = savedServer
        self.hostKeyPins = hostKeyPins
        self.secrets = secrets
        self.inventory = inventory
        self.environment = environment
        self.localUser = localUser
        self.executor = executor
        self.checkExecutor = checkExecutor
    }

    // MARK: policy (the rules are Operations'; the interface adds its phrasing)

    /// The servers as profiles' connection options, the ones a connection from the Servers screen uses.
    static func connectOptions(_ targets: [ConnectionProfile], knownHosts: String, environment: [String: String],
                               localUser: String, savedServer: (@Sendable (String) throws -> Server?)? = nil,
                               hostKeyPins: TeamPins.Lookup? = nil)
        -> [Result<ConnectOptions, ConnectionProblem>]
    {
        let context = ConnectionProfile.Context(environment: environment, localUser: localUser,
                                                knownHostsSetting: knownHosts, savedServer: savedServer,
                                                hostKeyPins: hostKeyPins)
        return targets.map { target in
            do throws(ConnectionProblem) { return .success(try target.options(context: context)) } catch {
                return .failure(error)
            }
        }
    }

    /// The servers of a run as fleet targets, with the connection options a connection from the Servers screen
    /// uses. The password asked before the run goes only to the servers saved as logging in with one; `checked`
    /// (by name) is what the check before the password found. A password server whose source is the vault or a
    /// command gets its own secret, read once before the run (`vault`: the fleet runs' `InterfaceSecrets`, which
    /// asks the vault passphrase at most once for the run — so this may wait for the person: never on the UI
    /// thread). Each saved server's login is remembered in `inventory` (`IdentityMemory`).
    static func fleetTargets(_ targets: [ConnectionProfile], knownHosts: String, password: String?,
                             checked: [String: FleetTarget.Problem] = [:], environment: [String: String],
                             localUser: String, savedServer: (@Sendable (String) throws -> Server?)? = nil,
                               hostKeyPins: TeamPins.Lookup? = nil,
                             vault: InterfaceSecrets? = nil, inventory: Inventory? = nil)
        -> [FleetTarget]
    {
        let options = connectOptions(targets, knownHosts: knownHosts, environment: environment, localUser: localUser,
                                     savedServer: savedServer, hostKeyPins: hostKeyPins)
        // Each password server with a source of its own: its secret, read once before the run.
        vault?.beginRun()
        let own = FleetTargets.ownSecrets(targets, options: options, provider: {
            InterfaceSecrets.provider($0, vault: vault)
        })
        // Who gets the password is FleetTargets' rule.
        return targets.indices.map { i in
            let target = targets[i]
            let name = target.name ?? target.host
            var fleetTarget = FleetTargets.target(target, name: name, options: options[i],
                                                  password: FleetTargets.Password(password, fromFile: false),
                                                  checked: checked[name], ownSecret: own[i],
                                                  remedy: { InterfaceWords.sentence($0) })
            fleetTarget.onLogin = IdentityMemory.recorder(for: target, in: inventory)
            return fleetTarget
        }
    }

    /// The runner's settings: the parallelism the system allows, the time per server, the interface's words.
    private static func runnerOptions(parallel: Int, timeout: Double) -> FleetRunner.Options {
        // The rule the command line uses; with no room for even one worker, the pool runs the servers on the
        // run's own thread, one at a time.
        let fits = max(1, FleetRunner.fit(parallel, openFiles: FileDescriptorLimit.raiseToHard()).parallel)
        return FleetRunner.Options(parallel: fits, timeout: timeout, describe: InterfaceWords.sentence)
    }

    // MARK: runs

    func run(id: Int, targets: [ConnectionProfile], command: String, knownHosts: String, parallel: Int,
             timeout: Double, password: String?, checked: [String: FleetTarget.Problem] = [:]) {
        let runner = FleetRunner(executor: executor, options: Self.runnerOptions(parallel: parallel, timeout: timeout))
        runners.withLock { $0[ObjectIdentifier(runner)] = runner }
        running.enter()
        let thread = Thread { [self] in
            defer { running.leave() }
            // On the run's thread: reading the servers' own secrets may ask the vault passphrase, or wait for a
            // command.
            let fleetTargets = Self.fleetTargets(targets, knownHosts: knownHosts, password: password,
                                                 checked: checked, environment: environment, localUser: localUser,
                                                 savedServer: savedServer, hostKeyPins: hostKeyPins,
                                                 vault: secrets, inventory: inventory)
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

    /// The check before run `id`'s password (`FleetPasswordCheck`) on a thread of its own; answers `fleetChecked`
    /// with what it found by server name.
    func checkLogins(id: Int, targets: [ConnectionProfile], knownHosts: String, parallel: Int, timeout: Double) {
        let options = Self.connectOptions(targets, knownHosts: knownHosts, environment: environment,
                                          localUser: localUser, savedServer: savedServer, hostKeyPins: hostKeyPins)
        let names = targets.map { $0.name ?? $0.host }
        let check = FleetPasswordCheck(options: Self.runnerOptions(parallel: parallel, timeout: timeout),
                                       executor: checkExecutor)
        checks.withLock { $0[ObjectIdentifier(check)] = check }
        running.enter()
        let thread = Thread { [self] in
            defer { running.leave() }
            let outcome = check.run(targets, names: names, options: options)
            checks.withLock { $0[ObjectIdentifier(check)] = nil }
            if check.isCancelled { return }
            var problems: [String: FleetTarget.Problem] = [:]
            for (i, problem) in outcome.problems { problems[names[i]] = problem }
            post(.fleetChecked(id: id, problems: problems, remaining: outcome.remaining))
        }
        thread.start()
    }

    /// Stops the checks in progress (Esc while checking): nothing is reported.
    func cancelCheck() {
        for check in checks.withLock({ Array($0.values) }) { check.cancel() }
    }

    /// Stops the servers of every run still running (what finished is kept).
    func cancel() {
        for runner in runners.withLock({ Array($0.values) }) { runner.cancel() }
        cancelCheck()
    }

    /// Waits at most `seconds` for every run to end; true when none is left.
    @discardableResult
    func waitUntilIdle(seconds: Double) -> Bool {
        running.wait(timeout: .now() + seconds) == .success
    }
}
