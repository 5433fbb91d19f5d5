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
    /// True while `withSession` or `withFleetRun` has the screen's state out of the state.
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
        didSet { serverList = ServerList(servers, filter: filter.text, localUser: localUser) }
    }
    var checks: [Int64: ServerCheck] = [:]
    /// The selection and scroll position in the list; kept while another screen is shown.
    var list = ListState()
    /// The filter's text; kept while another screen is shown (the bar is open only on the Servers screen).
    var filter = TextField() {
        didSet { if filter.text != oldValue.text { serverList.refilter(filter.text) } }
    }
    /// The servers the filter lets through and what the list shows of them, derived from `servers` and `filter`.
    private(set) var serverList = ServerList([], filter: "", localUser: "")
    var checking: CheckProgress?
    var lastCheckAt: Date?
    var settings = Settings()
    /// Help, dialogs, prompts, questions and forms over the screen: the top one takes the keys and is drawn last.
    var overlays = OverlayStack()
    /// Marked servers, the fleet command being typed, and the last fleet run once its screen was left.
    var fleet = FleetState()
    /// A one-line message in the status bar (a save that worked, a check that failed).
    package var notice: String?
    package var shouldQuit = false
    /// Autoconnect is tried once, after the first load.
    var autoconnectDone = false
    /// A session ended while it was reconnecting: the end of that connection (cancelled, or made after all) is
    /// nobody's news.
    var abandonedReconnect = false

    package init(size: Size, now: Date, localUser: String) {
        self.size = size
        self.now = now
        self.localUser = localUser
        serverList = ServerList([], filter: "", localUser: localUser)
    }

    /// The servers the filter lets through, in list order.
    var visibleServers: [Server] { serverList.visible }

    var selectedServer: Server? {
        guard let i = list.selected, serverList.visible.indices.contains(i) else { return nil }
        return serverList.visible[i]
    }

    /// How often time must tick on this screen (the spinner, the session clock, periodic checks); nil: never.
    package var tickInterval: Duration? {
        if screen.kind == .connecting || checking != nil || session?.running != nil {
            return .milliseconds(100)
        }
        if screen.kind == .session || (screen.kind == .servers && settings.checkInterval > 0) {
            return .seconds(1)
        }
        return nil
    }
}

/// Changing screens, and each screen's state read (a copy: its buffers are shared, not copied, until written).
extension AppState {
    /// Shows `next`. Leaving a screen closes the overlays that belong to it (help, its forms and questions); a fleet
    /// run whose screen is left stays as `fleet.lastRun` (its late results still land in it).
    mutating func show(_ next: Screen) {
        assert(!screenTakenOut, "a screen shown while its state was taken out would be overwritten")
        if next.kind != screen.kind { overlays.closeScreenOverlays() }
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
        screenTakenOut = true
        let result = change(&session, &self)
        screenTakenOut = false
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
        screenTakenOut = true
        let result = change(&run, &self)
        screenTakenOut = false
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
