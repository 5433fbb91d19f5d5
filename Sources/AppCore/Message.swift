import Basics
import SSH
import Fleet
import Foundation
import Inventory
import Mail
import NetParsers
import Operations
import TUIKit

/// Everything that can happen to the interface: input, time, and results of effects (posted from worker
/// threads through the runtime's queue).
package enum Message: Sendable {
    case input(InputEvent)
    /// Time passed (the spinner and the connected-time clock).
    case tick(Date)
    case loaded(servers: [Server], checks: [Int64: CheckResult], settings: [String: String])
    case storeFailed(String)
    case checkResult(serverId: Int64, status: CheckStatus, latencyMs: Double?, at: Date)
    case checkFinished(error: String?, at: Date)
    case serverSaved(String)
    case serverSaveFailed(String)
    case serverDeleted(String)
    case settingsSaved
    /// What quick connect's text names (`Work.resolveDestination`).
    case destinationResolved(ConnectionProfile.Resolution)
    /// Why quick connect's text names nothing to connect to (not a destination, an unreadable ~/.ssh/config).
    case destinationFailed(String)
    /// The hosts ~/.ssh/config names (`Work.findSSHConfigHosts`; posted only when there are some).
    case sshConfigHosts([String])
    /// How `Work.importSSHConfig` went, as one line.
    case sshConfigImported(String)
    case connectStage(String)
    /// A stage of one hop of a connection through jump hosts (the Connecting screen lists the hops).
    case connectHop(HopProgress)
    /// The server's pre-login banner, as sent (the view sanitises it).
    case connectBanner(String)
    /// Logged in; `auth` is how (`publickey (/home/me/.ssh/id_ed25519)`, `agent …`, `password`).
    case connected(os: ServerOS?, auth: LoginMethod? = nil, at: Date)
    case connectFailed(String)
    case prompt(PromptRequest)
    case history([String])
    /// The fleet commands run before, oldest first.
    case fleetHistory([String])
    case output(id: Int, bytes: [UInt8])
    case commandFinished(id: Int, status: Int32?, signal: String?, at: Date)
    case commandFailed(id: Int, message: String, connectionLost: Bool, at: Date)
    case quickFinished(id: Int, result: QuickResult, at: Date)
    /// How the session's commands run (known after connecting, or changed since); `notice`: a line for the output
    /// (the shell ended and a fresh one started, or there is none that lasts).
    case shellMode(ShellMode, notice: String?)
    /// The idle session's connection broke.
    case connectionLost(String, at: Date)
    /// The terminal is back after `Effect.handOver`.
    case handedBack(HandoffOutcome)
    /// How `Effect.sendMail` went (failure: the message could not be built), and to whom.
    case mailFinished(Result<MailDelivery.Outcome, MailError>, to: [String])
    /// How `Effect.retryMail` went (`error`: the outbox could not be read).
    case mailRetried([MailDelivery.Retry], error: String?)
    /// How `Effect.saveOutput` went (`error` nil: saved).
    case outputSaved(path: String, error: String?)
    /// A fleet run's server took a parallel slot (connecting now).
    case fleetStarted(id: Int, index: Int)
    /// Output of a fleet run's server while it runs (the final result brings all of it again).
    case fleetOutput(id: Int, index: Int, SSH.OutputStream, [UInt8])
    /// A fleet run's server finished (any status).
    case fleetResult(id: Int, index: Int, FleetResult)
    /// Every server of the fleet run has finished or was cancelled.
    case fleetFinished(id: Int, at: Date)
    /// What the check before run `id`'s password found: the servers decided (by name) and how many are left to
    /// receive the password.
    case fleetChecked(id: Int, problems: [String: FleetTarget.Problem], remaining: Int)
    /// Every tunnel the supervisor knows, with its state and figures (on each change, and each second while one runs).
    case tunnels([TunnelStatus])
    /// A server's saved tunnels were saved; `notice` says what changed (nil: nothing to say).
    case forwardsSaved(notice: String?)
    case forwardsSaveFailed(String)
    /// What the files worker did for the Files screen.
    case files(FilesEvent)
    /// What the vault's edge says: unlocked, used, how a login got its password, a password remembered.
    case vault(VaultEvent)
    /// What the key-install worker did (`Work.installKey`).
    case keyInstall(KeyInstallEvent)
    /// What the team worker learnt (issue 18): the link's status, and whether the shared servers in the cache
    /// changed (then the list is read again, in place).
    case team(TeamStatus, changed: Bool)
}
