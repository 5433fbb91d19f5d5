import Basics
import Fleet
import Operations
import Inventory
import Mail
import NetParsers
import Reachability

/// Work the runtime's workers do off the UI thread; results come back as `Message`s. Each case belongs to one
/// worker (`job`), so the live effect handler routes it without looking inside.
package enum Work: Sendable, Equatable {
    // The store worker (the database).
    /// Reads servers, last check results and settings.
    case load
    case saveServer(ServerDraft, replacing: String?)
    case deleteServer(String)
    case saveSettings([String: String])
    case recordConnection(name: String, os: ServerOS?)
    case loadHistory(String)
    case appendHistory(server: String, command: String, status: Int?)
    /// Reads the history of commands run on several servers at once (`x`).
    case loadFleetHistory
    case appendFleetHistory(command: String, servers: Int)
    /// Resolves what quick connect was given — a saved server, a Host in ~/.ssh/config, or a host — by the rule the
    /// command line uses (`ConnectionProfile.resolve`).
    case resolveDestination(String)
    /// Looks for hosts in ~/.ssh/config to offer importing (a first start with no servers).
    case findSSHConfigHosts
    /// Saves the hosts of ~/.ssh/config as servers (those behind a jump host left out).
    case importSSHConfig
    /// Remembers that the import was declined, so it is not offered again.
    case declineSSHConfigImport
    /// Changes a server's saved tunnels and autostart; `done` is the notice once saved.
    case saveForwards(server: String, ForwardChanges, autostart: Bool?, done: String?)

    // The team worker (issue 18).
    /// Syncs with the team database now (a shared server was saved or removed here: its edit is pushed; checks
    /// were recorded: they are published when this member publishes them).
    case syncTeam

    // The check worker.
    /// Checks servers (by row id) with this timeout in seconds.
    case check([Int64: CheckTarget], timeout: Double)

    // The session worker (the open SSH session).
    /// Connects; `knownHosts` is the file to verify against ("" for the default), `keepalive` the seconds between
    /// keepalives (the `session.keepalive` setting).
    case connect(ConnectionProfile, knownHosts: String, keepalive: Int)
    case cancelConnect
    case answer(id: Int, PromptAnswer)
    case run(id: Int, command: String)
    case runQuick(id: Int, kind: DataKind, os: ServerOS)
    case cancelCommand
    case disconnect
    /// Checks the idle session's connection (a keepalive when one is due), so a dead one is noticed without a
    /// command.
    case keepalive

    // The mail worker (mail and saved files).
    /// Builds and sends a mail through `sendmail`, keeping it in the outbox when that fails.
    case sendMail(OutputMail, sendmail: String)
    /// Sends the outbox's waiting mail again.
    case retryMail(sendmail: String)
    /// Writes `bytes` to a new private file at `path` (never over an existing one).
    case saveOutput(path: String, bytes: [UInt8])

    // The fleet worker.
    /// Runs `command` on these servers at once (at most `parallel`, `timeout` seconds each); results come back as
    /// `fleetStarted` / `fleetResult` / `fleetFinished` with this run id. `password` (asked once, kept in memory
    /// only) serves the servers that log in with a password.
    /// `checked`: what the check before the password found, by server name (reported, not tried again).
    case runFleet(id: Int, targets: [ConnectionProfile], command: String, knownHosts: String, parallel: Int,
                  timeout: Double, password: String?, checked: [String: FleetTarget.Problem] = [:])
    /// Stops the servers of the fleet run still running (what finished is kept).
    case cancelFleet
    /// Before the password of run `id` is asked: connects to the servers among `targets` that would receive it,
    /// checks their host keys and login methods (`FleetPasswordCheck`); answers `fleetChecked`.
    case checkFleetLogins(id: Int, targets: [ConnectionProfile], knownHosts: String, parallel: Int, timeout: Double)
    /// Stops that check (Esc): nothing runs.
    case cancelFleetCheck

    // The tunnel worker (the `TunnelSupervisor`).
    /// Starts a saved tunnel and keeps it up (reconnecting after a drop) until it is stopped.
    case startTunnel(TunnelID)
    case stopTunnel(TunnelID)
    case restartTunnel(TunnelID)
    /// Stops a tunnel and forgets it (deleted, or changed into another).
    case forgetTunnel(TunnelID)

    /// The files worker: the Files screen's own connection, listings, changes and copies.
    case files(FilesWork)

    /// The vault worker: locking, and remembering a typed password.
    case vault(VaultWork)

    // The key-install worker.
    /// Installs the person's public key on this saved server as `essh key install NAME` does (`KeyInstall`): logs
    /// in its usual way, appends the key, checks a login with the key alone, remembers that identity; answers
    /// `keyInstall` events.
    case installKey(ConnectionProfile, knownHosts: String)
    /// Stops the running install (Esc).
    case cancelKeyInstall

    /// The worker that does each kind of work.
    package enum Job: Sendable, Equatable {
        case store, check, session, mail, fleet, tunnels, files, vault, keyInstall, team
    }

    package var job: Job {
        switch self {
        case .load, .saveServer, .deleteServer, .saveSettings, .recordConnection, .loadHistory, .appendHistory,
             .loadFleetHistory, .appendFleetHistory, .resolveDestination, .findSSHConfigHosts, .importSSHConfig,
             .declineSSHConfigImport, .saveForwards:
            return .store
        case .check: return .check
        case .syncTeam: return .team
        case .connect, .cancelConnect, .answer, .run, .runQuick, .cancelCommand, .disconnect, .keepalive:
            return .session
        case .sendMail, .retryMail, .saveOutput: return .mail
        case .runFleet, .cancelFleet, .checkFleetLogins, .cancelFleetCheck: return .fleet
        case .startTunnel, .stopTunnel, .restartTunnel, .forgetTunnel: return .tunnels
        case .files: return .files
        case .vault: return .vault
        case .installKey, .cancelKeyInstall: return .keyInstall
        }
    }
}
