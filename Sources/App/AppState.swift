import Operations
import Foundation
import Inventory
import TUIKit

/// The whole state of the terminal interface: a value, changed only by `Update.update`.
struct AppState: Sendable {
    var screen: Screen = .servers
    var size: Size
    var now: Date
    /// The local user name, for `user@host` when a server has no user.
    var localUser: String
    var tick = 0
    /// Whether the terminal shows Unicode (else ASCII borders, dots and spinner).
    var unicode = true
    var loaded = false
    var servers: [Server] = []
    var checks: [Int64: ServerCheck] = [:]
    var list = ListState()
    var filter = TextField()
    var isFiltering = false
    var checking: CheckProgress?
    var lastCheckAt: Date?
    var settings = Settings()
    var form: FormState?
    var connecting: ConnectingState?
    var session: SessionState?
    var summary: SummaryState?
    var dialog: DialogState?
    var prompt: PromptState?
    /// Marked servers, the fleet command being typed, and the fleet run shown on the Fleet screen.
    var fleet = FleetState()
    var showHelp = false
    /// A one-line message in the status bar (a save that worked, a check that failed).
    var notice: String?
    var shouldQuit = false
    /// Autoconnect is tried once, after the first load.
    var autoconnectDone = false

    init(size: Size, now: Date, localUser: String) {
        self.size = size
        self.now = now
        self.localUser = localUser
    }

    /// The servers the filter lets through, in list order.
    var visibleServers: [Server] {
        let needle = filter.text.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return servers }
        return servers.filter { ServerFilter.matches($0, needle) }
    }

    var selectedServer: Server? {
        let visible = visibleServers
        guard let i = list.selected, visible.indices.contains(i) else { return nil }
        return visible[i]
    }
}
