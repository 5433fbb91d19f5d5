import Inventory
import Mail
import NetParsers
import Reachability

/// Work the runtime does off the UI thread; its results come back as `Message`s. `Update.update` only returns
/// these, so the state machine is tested without a network, a database or a terminal.
enum Effect: Sendable, Equatable {
    /// Reads servers, last check results and settings.
    case load
    /// Checks servers (by row id) with this timeout in seconds.
    case check([Int64: CheckTarget], timeout: Double)
    case saveServer(ServerDraft, replacing: String?)
    case deleteServer(String)
    case saveSettings([String: String])
    /// Connects; `knownHosts` is the file to verify against ("" for the default).
    case connect(ConnectTarget, knownHosts: String)
    case cancelConnect
    case answer(id: Int, PromptAnswer)
    case recordConnection(name: String, os: ServerOS?)
    case loadHistory(String)
    case run(id: Int, command: String)
    case runQuick(id: Int, kind: DataKind, os: RemoteOS?)
    case cancelCommand
    case appendHistory(server: String, command: String, status: Int?)
    case disconnect
    /// Sends a keepalive on the idle session, so a dead connection is noticed without a command.
    case keepalive
    /// Runs work that needs the real terminal (a pipe into a local command); the runtime, not the runner,
    /// takes this one, because only the UI thread may leave and re-enter the full-screen mode.
    case handOver(Handoff)
    /// Builds and sends a mail through `sendmail`, keeping it in the outbox when that fails.
    case sendMail(OutputMail, sendmail: String)
    /// Sends the outbox's waiting mail again.
    case retryMail(sendmail: String)
    /// Writes `bytes` to a new private file at `path` (never over an existing one).
    case saveOutput(path: String, bytes: [UInt8])
    /// Runs `command` on these servers at once (at most `parallel`, `timeout` seconds each); results come back as
    /// `fleetStarted` / `fleetResult` / `fleetFinished` with this run id. `password` (asked once, kept in memory
    /// only) serves the servers that log in with a password.
    case runFleet(id: Int, targets: [ConnectTarget], command: String, knownHosts: String, parallel: Int,
                  timeout: Double, password: String?)
    /// Stops the servers of the fleet run still running (what finished is kept).
    case cancelFleet
}
