import Operations
import Foundation
import Inventory
import TUIKit

/// The whole state of the terminal interface: a value, changed only by `Update.update`. The screen shown carries
/// the state only it has (`Screen`); beside it is what outlives a screen: the server list with its filter and
/// selection, checks, settings, the fleet marks and last run, the overlays, the status line.
package struct AppState: Sendable {
    /// The screen shown, with its state. Changed through `show` (leaving a screen closes the overlays that belong to
    /// it) and, in place, through `withSession` / `withFleetRun`.
    private(set) var screen: Screen = .servers
    /// The kind of the screen `withSession` or `withFleetRun` has out of the state meanwhile (nil: none is out).
    private var takenOut: Screen.Kind?
    /// True while `withSession` or `withFleetRun` has a screen's state (or the last run) out of the state.
    private var screenTakenOut = false
    package var size: Size
    package var now: Date
    /// The local user name, for `user@host` when a server has no user.
    var localUser: String
    var tick = 0
    /// Whether the terminal shows Unicode (else ASCII borders, dots and spinner).
    package var unicode = true
    package var loaded = false
    /// The saved servers, in list order. Setting them (or the filter) recomputes `serverList`, what the Servers
    /// screen draws from, once: never per frame.
    var servers: [Server] = [] {
        didSet {
            serverList = ServerList(servers, arrangement: arrangement, checks: checks, localUser: localUser)
        }
    }
    var checks: [Int64: ServerCheck] = [:]
    /// The team link as the team worker last posted it (nil: not linked, or nothing heard yet).
    var team: TeamStatus?
    /// The selection and scroll position in the list (a line of `serverList.entries`); kept while another screen is
    /// shown.
    var list = ListState()
    /// The filter's text; kept while another screen is shown (the bar is open only on the Servers screen).
    var filter = TextField() {
        didSet { if filter.text != oldValue.text { arrangeServers() } }
    }
    /// Folded groups of the list grouped by tag ("" for the servers without a tag).
    var collapsedTags: Set<String> = [] {
        didSet { if collapsedTags != oldValue { arrangeServers() } }
    }
    /// The servers the filter lets through and what the list shows of them, derived from `servers`, `filter`, the
    /// order and grouping settings and the folded groups.
    private(set) var serverList = ServerList([], filter: "", localUser: "")
    var checking: CheckProgress?
    var lastCheckAt: Date?
    var settings = Settings() {
        didSet {
            if settings.serverOrder != oldValue.serverOrder || settings.groupByTag != oldValue.groupByTag {
                arrangeServers()
            }
        }
    }
    /// Help, dialogs, prompts, questions and forms over the screen: the top one takes the keys and is drawn last.
    var overlays = OverlayStack()
    /// Marked servers, the fleet command being typed, and the last fleet run once its screen was left.
    var fleet = FleetState()
    /// The supervised tunnels' states and figures, as the tunnel worker last posted them (kept on every screen).
    var tunnels: [TunnelID: TunnelStatus] = [:]
    /// The status line's message with the screen it was said on.
    private var noticeEntry: Notice?
    /// A one-line message in the status bar (a save that worked, a check that failed). It belongs to the screen
    /// shown when it was set: another screen never shows it, and it is dropped when that screen is left.
    package var notice: String? {
        get { noticeEntry.flatMap { $0.screen == currentKind ? $0.text : nil } }
        set { noticeEntry = newValue.map { Notice(text: $0, screen: currentKind) } }
    }
    package var shouldQuit = false
    /// Connections given up with Esc whose outcome has not arrived yet: what they still send is dropped.
    var abandonedConnections = 0
    /// Autoconnect is tried once, after the first load.
    var autoconnectDone = false
    /// A session ended while it was reconnecting: the end of that connection (cancelled, or made after all) is
    /// nobody's news.
    var abandonedReconnect = false
    /// The vault as the interface knows it: exists, unlocked, last used (the idle lock's clock).
    var vault = VaultState()
    /// The key being installed on a saved server (`I`), shown over the servers list; nil when none is.
    var keyInstall: KeyInstallState?
    /// The local user's home folder, to write key files as `~/.ssh/id_ed25519` ("" when unknown).
    package var home = ""
    /// How many times the Files screen was opened: each opening's number tells its worker messages from older ones.
    var filesOpened = 0

    package init(size: Size, now: Date, localUser: String) {
        self.size = size
        self.now = now
        self.localUser = localUser
        serverList = ServerList([], filter: "", localUser: localUser)
    }

    /// The servers the filter lets through, in list order.
    var visibleServers: [Server] { serverList.visible }

    /// Lines of the list (servers, and group headings when grouped): what the selection moves over.
    var listLines: Int { serverList.entries.count }

    /// The server on the selected line (nil on a group's heading).
    var selectedServer: Server? {
        list.selected.flatMap { serverList.server(atEntry: $0) }
    }

    /// The selected server, or every server of the selected group's heading.
    var selectedServers: [Server] {
        guard let line = list.selected else { return [] }
        if let server = serverList.server(atEntry: line) { return [server] }
        guard let (_, group) = serverList.group(atEntry: line) else { return [] }
        return group.members.map { serverList.rows[$0].server }
    }

    /// How the list is arranged now.
    var arrangement: ServerList.Arrangement {
        ServerList.Arrangement(filter: filter.text, order: settings.serverOrder, grouped: settings.groupByTag,
                               collapsed: collapsedTags)
    }

    /// Filters, orders and groups the list again (the servers themselves did not change).
    mutating func arrangeServers() {
        serverList.arrange(arrangement, checks: checks)
    }

    /// Whether the terminal should report the mouse wheel (the `ui.mouse` setting; off, it selects text).
    package var mouseReporting: Bool { settings.mouse }

    /// Whether the Fleet screen shows a run still going (its clock and spinners move).
    private var fleetShownRunning: Bool {
        if case .fleet(let run) = screen { return run.isRunning } else { return false }
    }

    /// The idle lock's minutes: the typed setting `vault.idle_lock` (1 to 1440, default 15), so a change on the
    /// Settings screen counts at once.
    var vaultIdleLockMinutes: Int { settings.vaultIdleLock }

    /// How often time must tick on this screen (the spinner, the session clock, periodic checks); nil: never.
    package var tickInterval: Duration? {
        if screen.kind == .connecting || checking != nil || session?.running != nil || fleetShownRunning {
            return .milliseconds(100)
        }
        if screen.kind == .session || (screen.kind == .servers && settings.checkInterval > 0) {
            return .seconds(1)
        }
        // The idle lock is judged on ticks: while the vault is unlocked, the clock keeps going.
        if vault.unlocked && vaultIdleLockMinutes > 0 { return .seconds(1) }
        return nil
    }
}

/// Changing screens, and each screen's state read (a copy: its buffers are shared, not copied, until written).
extension AppState {
    /// The kind of the screen shown, also while `withSession` / `withFleetRun` have its state out.
    var currentKind: Screen.Kind { takenOut ?? screen.kind }

    /// Shows `next`. Leaving a screen closes the overlays that belong to it (help, its forms and questions) and drops
    /// its notice; a fleet run whose screen is left stays as `fleet.lastRun` (its late results still land in it).
    mutating func show(_ next: Screen) {
        assert(!screenTakenOut, "a screen shown while its state was taken out would be overwritten")
        if next.kind != screen.kind {
            overlays.closeScreenOverlays()
            noticeEntry = nil
        }
        if case .fleet(let run) = screen, next.kind != .fleet { fleet.lastRun = run }
        screen = next
    }

    /// Whether the filter bar takes the keys (only ever on the Servers screen).
    var isFiltering: Bool {
        get { if case .servers(filtering: true) = screen { return true } else { return false } }
        set { if case .servers = screen { screen = .servers(filtering: newValue) } }
    }

    /// The open session: shown, or kept under the summary of a shell opened from it.
    var session: SessionState? { screen.session }

    var form: FormState? {
        if case .form(let form) = screen { return form } else { return nil }
    }

    var connecting: ConnectingState? {
        if case .connecting(let connecting) = screen { return connecting } else { return nil }
    }

    var summary: SummaryState? {
        if case .summary(let summary) = screen { return summary } else { return nil }
    }

    /// The fleet run shown, else the last one (its screen left).
    var fleetRun: FleetRun? {
        if case .fleet(let run) = screen { return run } else { return fleet.lastRun }
    }

    /// Changes the form shown (nothing when none is).
    mutating func changeForm(_ change: (inout FormState) -> Void) {
        guard case .form(var form) = screen else { return }
        change(&form)
        screen = .form(form)
    }

    /// Changes the connection being made (nothing when none is).
    mutating func changeConnecting(_ change: (inout ConnectingState) -> Void) {
        guard case .connecting(var connecting) = screen else { return }
        change(&connecting)
        screen = .connecting(connecting)
    }

    /// Runs `change` on the open session (shown, or kept under a shell's summary) with the rest of the state at
    /// hand; nil when no session is open. The session is taken out of the state meanwhile, so it is changed in place
    /// and its scrollback is never copied (a copy of the session's enum payload would share the ring, and the first
    /// write would then copy it). `change` must not show another screen, and sees the screen as the Servers screen
    /// while the shown session is out.
    @discardableResult
    mutating func withSession<R>(_ change: (inout SessionState, inout AppState) -> R) -> R? {
        var session: SessionState
        let kept: Bool
        switch screen {
        case .session(let shown):
            session = shown
            kept = false
            screen = .servers
        case .summary(var summary):
            guard let open = summary.session else { return nil }
            session = open
            kept = true
            summary.session = nil
            screen = .summary(summary)
        default:
            return nil
        }
        (screenTakenOut, takenOut) = (true, kept ? .summary : .session)
        let result = change(&session, &self)
        (screenTakenOut, takenOut) = (false, nil)
        if !kept {
            screen = .session(session)
        } else if case .summary(var summary) = screen {
            summary.session = session
            screen = .summary(summary)
        }
        return result
    }

    /// Runs `change` on the fleet run shown, else on the last one, with the rest of the state at hand (in place, as
    /// `withSession`); nil when there is no run. `change` must not show another screen.
    @discardableResult
    mutating func withFleetRun<R>(_ change: (inout FleetRun, inout AppState) -> R) -> R? {
        var run: FleetRun
        let shown: Bool
        if case .fleet(let current) = screen {
            run = current
            shown = true
            screen = .servers
        } else if let last = fleet.lastRun {
            run = last
            shown = false
            fleet.lastRun = nil
        } else {
            return nil
        }
        (screenTakenOut, takenOut) = (true, shown ? .fleet : nil)
        let result = change(&run, &self)
        (screenTakenOut, takenOut) = (false, nil)
        if shown { screen = .fleet(run) } else { fleet.lastRun = run }
        return result
    }
}

/// The overlays by kind, read and written through the one stack (setting one that is not open pushes it on top;
/// nil closes it).
extension AppState {
    var showHelp: Bool {
        get { overlays.help != nil }
        set { overlays.help = newValue ? (overlays.help ?? HelpState()) : nil }
    }

    var dialog: DialogState? {
        get { overlays.dialog }
        set { overlays.dialog = newValue }
    }

    var prompt: PromptState? {
        get { overlays.prompt }
        set { overlays.prompt = newValue }
    }

    /// What `x` asks before a fleet run (the command, then maybe a password).
    var fleetQuestion: FleetQuestion? {
        get { overlays.fleetQuestion }
        set { overlays.fleetQuestion = newValue }
    }

    /// The mail / save / pipe form over the session, or the mail form over the fleet results.
    var outputTool: OutputToolState? {
        get { overlays.outputTool }
        set { overlays.outputTool = newValue }
    }
}

/// A status-line message and the screen it belongs to.
struct Notice: Sendable, Equatable {
    var text: String
    var screen: Screen.Kind
}
