import ArgumentParser
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

    /// The servers the selection picks, as targets, and the stored settings. Reading never creates a database.
    func resolve() throws -> Resolved {
        let database = connection.database
        let store = try database.openExisting()
        let settings = store.flatMap { try? $0.allSettings() }.map(Settings.init(stored:)) ?? Settings()
        var picked: [(name: String, profile: ConnectionProfile)] = []
        for pick in try SelectionOptions.resolve(selection, store: store, database: database, hosts: true,
                                                 defaultAll: false) {
            switch pick {
            case .saved(let server):
                picked.append((server.name, ConnectionProfile(server: server)))
            case .host(let word):
                do { picked.append((word, ConnectionProfile(destination: try Destination(parsing: word)))) }
                catch { throw ValidationError("\(word): \(error.message)") }
            }
        }
        let password = try fleetPassword(needsPassword: FleetTargets.needsPassword(picked.map(\.profile)))
        let policy = connection.hostKeyPolicy.flatMap(HostKeyPolicy.init(rawValue:)) ?? .strict
        let targets = picked.map { name, profile -> FleetTarget in
            let options = connection.connectOptions(profile).map { options in
                var options = options
                options.hostKeyPolicy = policy
                return options
            }
            return FleetTargets.target(profile, name: name, options: options, password: password,
                                       remedy: ConnectionOptions.sentence)
        }
        return Resolved(targets: targets, profiles: picked.map(\.profile), settings: settings, store: store)
    }

    /// A fleet never stops to ask in the middle: a password comes from --password-file, or is asked once on the
    /// terminal before anything starts (when a picked server logs in with a password). It goes to the servers saved
    /// as logging in with a password; a `--password-file` password also goes to the destinations named on the
    /// command line that are not saved servers (the user named both, as with `essh exec user@host`), after their
    /// keys and the agent. Servers saved with a key or the agent never get it.
    func fleetPassword(needsPassword: Bool) throws -> FleetTargets.Password {
        if let file = connection.passwordFile {
            return FleetTargets.Password(try ConnectionOptions.readPasswordFile(file), fromFile: true)
        } else if needsPassword, TerminalPrompter.hasTerminal {
            return FleetTargets.Password(
                TerminalPrompter.ask("Password for the servers that log in with a password: ", echo: false),
                fromFile: false)
        }
        return .none
    }

    /// The runner for a run: `parallel` (else the fleet.parallel setting) lowered to what the open-file and memory
    /// limits allow, with a note, or the run refused (exit 75); `timeout` per server (else fleet.timeout).
    static func runner(parallel: Int?, timeout: Double?, settings: Settings,
                       executor: any FleetExecutor = SSHFleetExecutor()) throws -> FleetRunner {
        let fit = FleetRunner.fit(parallel ?? settings.fleetParallel, openFiles: FileDescriptorLimit.raiseToHard())
        if let refusal = fit.refusal { throw CommandFailure(.tempFailure, refusal) }
        if let lowered = fit.lowered { printError(lowered + ".") }
        return FleetRunner(executor: executor,
                           options: .init(parallel: fit.parallel, timeout: timeout ?? settings.fleetTimeout))
    }
}
