import Operations
import Foundation
import Inventory
import TUIKit

/// The whole state of the terminal interface: a value, changed only by `Update.update`.
package struct AppState: Sendable {
    /// The screen shown. Leaving a screen closes the overlays that belong to it (help, its forms and questions).
    var screen: Screen = .servers {
        didSet { if screen != oldValue { overlays.closeScreenOverlays() } }
    }
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
    var list = ListState()
    var filter = TextField() {
        didSet { if filter.text != oldValue.text { serverList.refilter(filter.text) } }
    }
    var isFiltering = false
    /// The servers the filter lets through and what the list shows of them, derived from `servers` and `filter`.
    private(set) var serverList = ServerList([], filter: "", localUser: "")
    var checking: CheckProgress?
    var lastCheckAt: Date?
    var settings = Settings()
    var form: FormState?
    var connecting: ConnectingState?
    var session: SessionState?
    var summary: SummaryState?
    /// Help, dialogs, prompts, questions and forms over the screen: the top one takes the keys and is drawn last.
    var overlays = OverlayStack()
    /// Marked servers, the fleet command being typed, and the fleet run shown on the Fleet screen.
    var fleet = FleetState()
    /// A one-line message in the status bar (a save that worked, a check that failed).
    package var notice: String?
    package var shouldQuit = false
    /// Autoconnect is tried once, after the first load.
    var autoconnectDone = false

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
        if screen == .connecting || checking != nil || session?.running != nil {
            return .milliseconds(100)
        }
        if screen == .session || (screen == .servers && settings.checkInterval > 0) {
            return .seconds(1)
        }
        return nil
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
