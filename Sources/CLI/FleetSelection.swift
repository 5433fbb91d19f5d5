import ArgumentParser
import Fleet
import Foundation
import Inventory
import Operations
import Reachability
import SSH

/// The servers a fleet run goes to — `--all`, `--tag TAG` or `NAME,NAME,…` — as targets under the one password
/// rule (`FleetTargets`), the stored settings, and the runner that fits the system's limits. Shared by
/// `essh exec` (a command on many servers) and `essh net` (a quick command on many servers), so both pick, log in
/// and run alike.
struct FleetSelection {
    var connection: ConnectionOptions
    var all: Bool
    var tag: String?
    /// `NAME,NAME,…` (saved names or `[user@]host[:port]`), when neither --all nor --tag is given.
    var dest: String?

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

    /// The checks every fleet command makes of its selection options (`exec` and `net` alike).
    static func validate(all: Bool, tag: String?, parallel: Int?) throws {
        if all && tag != nil { throw ValidationError("Give --all or --tag, not both.") }
        if let tag, tag.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--tag needs a tag name.") }
        if let parallel, !(1...1024).contains(parallel) {
            throw ValidationError("--parallel \(parallel): give a number of servers at once from 1 to 1024.")
        }
    }

    /// The servers picked by --all, --tag or the comma list, as targets, and the stored settings.
    func resolve() throws -> Resolved {
        let database = connection.database
        let store = try database.openExisting()
        let settings = store.flatMap { try? $0.allSettings() }.map(Settings.init(stored:)) ?? Settings()
        var picked: [(name: String, profile: ConnectionProfile)] = []
        if all || tag != nil {
            guard let store else {
                throw CommandFailure(.badInput,
                                     "No database at \(database.path) yet: add servers with essh servers add first.")
            }
            let tag = tag?.trimmingCharacters(in: .whitespaces)
            let servers = try store.servers(taggedWith: tag)
            if servers.isEmpty {
                throw CommandFailure(.badInput, tag.map { "No saved server has the tag \($0) (see essh servers list)." }
                                     ?? "No servers are saved yet: add some with essh servers add.")
            }
            picked = servers.map { ($0.name, ConnectionProfile(server: $0)) }
        } else {
            var seen: Set<String> = []
            for part in (dest ?? "").split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, seen.insert(name).inserted else { continue }
                var saved: Server?
                if let store, !name.contains("@"), !name.contains(":") {
                    saved = try store.findServer(named: name)
                }
                if let saved {
                    picked.append((name, ConnectionProfile(server: saved)))
                } else {
                    do { picked.append((name, ConnectionProfile(destination: try Destination(parsing: name)))) }
                    catch { throw ValidationError("\(name): \(error.message)") }
                }
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
