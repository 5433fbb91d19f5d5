import ArgumentParser
import Basics
import Fleet
import Foundation
import Inventory
import Operations
import Reachability
import SSH

/// The servers a fleet run goes to — what `SelectionOptions` and the command's words pick (`--all`, `--tag`,
/// `web[01-20]`, `db*`, `!web3`, a hosts file, `NAME,NAME,…`) — as targets under the one password rule
/// (`FleetTargets`), the stored settings, and the runner that fits the system's limits. Shared by `essh exec` (a
/// command on many servers) and `essh net` (a quick command on many servers), so both pick, log in and run alike.
struct FleetSelection {
    var connection: ConnectionOptions
    /// The command line's port (`-p`, `-P`), for every target.
    var port: Int?
    /// What picks the servers; a word that names no saved server is a host, `[user@]host[:port]`.
    var selection: ServerSelection

    /// What the selection resolved to.
    struct Resolved {
        /// The targets, in order.
        var targets: [FleetTarget]
        /// Each target's profile (same order): a saved server's stored OS, whether it is saved.
        var profiles: [ConnectionProfile]
        /// The stored settings (defaults without a database).
        var settings: Settings
        /// The database, when it exists.
        var store: Inventory?
        /// The runner's settings: the parallelism the system allows, the time per server.
        var runnerOptions: FleetRunner.Options

        /// The runner for the run, doing `executor`'s work on each server.
        func runner(executor: any FleetExecutor = SSHFleetExecutor()) -> FleetRunner {
            FleetRunner(executor: executor, options: runnerOptions)
        }
    }

    /// The checks every fleet command makes of its options (`exec` and `net` alike): the selectors as written
    /// (`words`: the command's DEST, when the options do not pick the servers themselves), and `--parallel`.
    static func validate(_ options: SelectionOptions, words: [String], parallel: Int?) throws {
        let selectors = try options.selectors(words)
        if !options.all && !selectors.contains(where: { !$0.isExclusion }) && options.hostsFile.isEmpty {
            throw ValidationError(selectors.isEmpty
                ? "Say which servers: --all, --tag TAG, --hosts-file FILE or NAME,NAME,... (names, patterns such as "
                    + "web[01-20] or db*, tag:TAG)."
                : "Exclusions alone pick no servers: say which servers to start from (--all, --tag TAG, names).")
        }
        if let parallel, !(1...1024).contains(parallel) {
            throw ValidationError("--parallel \(parallel): give a number of servers at once from 1 to 1024.")
        }
    }

    /// The servers the selection picks, as targets, the stored settings and the runner's settings (`parallel`,
    /// else the fleet.parallel setting, lowered to what the system allows, with a note, or the run refused with 75;
    /// `timeout` per server, else fleet.timeout). Reading never creates a database. A word that is no saved server
    /// is resolved as `essh exec NAME` resolves it: a Host of ~/.ssh/config, else the host
    /// typed. When a password is to be asked, the servers that would receive it are checked first
    /// (`FleetPasswordCheck`): one found unknown, unreachable or taking no password gets its status at once, and
    /// the password is asked only if a server is left.
    func resolve(parallel: Int?, timeout: Double?) throws -> Resolved {
        let database = connection.database
        let store = try database.openExisting()
        let settings = store.flatMap { try? $0.allSettings() }.map(Settings.init(stored:)) ?? Settings()
        var picked: [(name: String, profile: ConnectionProfile)] = []
        let context = ConnectionProfile.Context()
        for pick in try SelectionOptions.resolve(selection, store: store, database: database, hosts: true,
                                                 defaultAll: false) {
            switch pick {
            case .saved(let server):
                picked.append((server.name, ConnectionProfile(server: server)))
            case .host(let word):
                do {
                    let found = try ConnectionProfile.resolve(word, saved: { _ in nil }, context: context)
                    picked.append((word, found.profile))
                } catch let error as SSHError {
                    throw ValidationError("\(word): \(error.message)")
                }
            }
        }
        let runnerOptions = try Self.runnerOptions(parallel: parallel, timeout: timeout, settings: settings)
        let policy = connection.hostKeyPolicy.flatMap(HostKeyPolicy.init(rawValue:)) ?? .strict
        let options = picked.map { _, profile in
            connection.connectOptions(profile, port: port).map { options in
                var options = options
                options.setHostKeyPolicy(policy)
                return options
            }
        }
        let profiles = picked.map(\.profile)
        var checked = FleetPasswordCheck.Outcome()
        let password = try fleetPassword(needsPassword: FleetTargets.needsPassword(profiles)) {
            checked = try check(profiles, names: picked.map(\.name), options: options, runnerOptions: runnerOptions)
            return checked.needsPassword
        }
        // Each server with a source of its own: its secret, fetched once before the run (a config problem first).
        let vault = VaultAccess.secrets(database)
        defer { vault.drop() }
        let secrets = FleetTargets.ownSecrets(profiles, options: options) {
            CredentialSourceCheck.provider($0, vault: vault)
        }
        let targets = picked.indices.map { i in
            var target = FleetTargets.target(profiles[i], name: picked[i].name, options: options[i],
                                             password: password, checked: checked.problems[i], ownSecret: secrets[i],
                                             remedy: ConnectionOptions.sentence)
            target.onLogin = IdentityMemory.recorder(for: profiles[i], in: store)
            return target
        }
        return Resolved(targets: targets, profiles: profiles, settings: settings, store: store,
                        runnerOptions: runnerOptions)
    }

    /// `FleetPasswordCheck` before the password is asked, with a line on the terminal while it runs; Ctrl-C stops
    /// the command (130).
    private func check(_ profiles: [ConnectionProfile], names: [String],
                       options: [Result<ConnectOptions, ConnectionProblem>],
                       runnerOptions: FleetRunner.Options) throws -> FleetPasswordCheck.Outcome {
        let check = FleetPasswordCheck(options: runnerOptions)
        let count = profiles.filter(FleetTargets.receivesAskedPassword).count
        let line = ProgressLine(enabled: TerminalOutput.stderrIsTerminal)
        line.show("Checking the host keys of the " + CountText.text(count, "server")
                  + " that log\(count == 1 ? "s" : "") in with a password…", final: false)
        let signals = SignalCancellation { check.cancel() }
        let outcome = check.run(profiles, names: names, options: options)
        signals.stop()
        line.clear()
        if check.isCancelled { throw CommandFailure(.interrupted) }
        return outcome
    }

    /// A fleet never stops to ask in the middle: a password comes from --password-file, or is asked once on the
    /// terminal before anything starts (when a picked server logs in with a password). It goes to the servers saved
    /// as logging in with a password; a `--password-file` password also goes to the destinations named on the
    /// command line that are not saved servers (the user named both, as with `essh exec user@host`), after their
    /// keys and the agent. Servers saved with a key or the agent never get it.
    /// A password is asked only when `stillNeeded` (the check of the servers that would receive it) finds one left.
    func fleetPassword(needsPassword: Bool, stillNeeded: () throws -> Bool) throws -> FleetTargets.Password {
        if let file = connection.passwordFile {
            return FleetTargets.Password(try ConnectionOptions.readPasswordFile(file), fromFile: true)
        } else if needsPassword, TerminalPrompter.hasTerminal, try stillNeeded() {
            return FleetTargets.Password(
                TerminalPrompter.ask("Password for the servers that log in with a password: ", echo: false),
                fromFile: false)
        }
        return .none
    }

    /// The runner's settings for a run: `parallel` (else the fleet.parallel setting) lowered to what the open-file
    /// and memory limits allow, with a note, or the run refused (exit 75); `timeout` per server (else
    /// fleet.timeout).
    static func runnerOptions(parallel: Int?, timeout: Double?, settings: Settings) throws -> FleetRunner.Options {
        let fit = FleetRunner.fit(parallel ?? settings.fleetParallel, openFiles: FileDescriptorLimit.raiseToHard())
        if let refusal = fit.refusal { throw CommandFailure(.tempFailure, refusal) }
        if let lowered = fit.lowered { printError(lowered + ".") }
        return FleetRunner.Options(parallel: fit.parallel, timeout: timeout ?? settings.fleetTimeout)
    }
}
