import Basics
import Operations
import Foundation
import Inventory
import Reachability
import TUIKit

/// The Servers screen: its keys, the filter bar, loading the list, checks and their results.
extension Update {
    static func serversKey(_ state: inout AppState, _ action: ServersAction?) -> [Effect] {
        guard let action else { return [] }
        // The key install's box takes the keys while it is shown.
        if state.keyInstall != nil { return keyInstallKey(&state, action) }
        if action == .clearFilter {
            // Only clears: the notice and the selection stay as they are.
            if !state.filter.text.isEmpty { state.filter.setText("") }
            return []
        }
        let count = state.listLines
        let page = max(1, ScreenLayout.serverRows(state.size, team: state.team != nil))
        state.notice = nil
        switch action {
        case .up: state.list.selectPrevious(count: count)
        case .down: state.list.selectNext(count: count)
        case .pageUp: state.list.pageUp(count: count, pageSize: page)
        case .pageDown: state.list.pageDown(count: count, pageSize: page)
        case .first: state.list.selectFirst(count: count)
        case .last: state.list.selectLast(count: count)
        case .filter: state.isFiltering = true
        case .clearFilter: break
        case .help: state.showHelp = true
        case .quit: state.shouldQuit = true
        case .add: state.show(.form(.server(nil)))
        case .edit:
            guard let server = state.selectedServer else { return [] }
            state.show(.form(.server(server)))
        case .settings: state.show(.form(.settings(state.settings)))
        case .tunnels: showTunnels(&state)
        case .files: return openFiles(&state)
        case .quickConnect: state.show(.form(.quickConnect))
        case .delete:
            guard let server = state.selectedServer else { return [] }
            state.dialog = DialogState(purpose: .confirmDelete(server.name), title: "Delete server",
                                       message: "Delete \(server.name) (\(server.host))? Its history goes too.",
                                       buttons: ["Delete", "Keep"], selected: 1)
        case .check: return startCheck(&state)
        case .connect:
            guard let server = state.selectedServer else {
                // Enter on a group's heading folds or unfolds it.
                toggleGroup(&state, fold: nil)
                break
            }
            return connect(&state, ConnectionProfile(server: server))
        case .shell:
            guard let server = state.selectedServer else { return [] }
            return connect(&state, ConnectionProfile(server: server), openShell: true)
        case .mark: markSelected(&state)
        case .markAll: markAllVisible(&state)
        case .runOnMarked: return askFleetCommand(&state)
        case .lockVault: return lockVault(&state)
        case .installKey: return installKey(&state)
        case .collapse: toggleGroup(&state, fold: true)
        case .expand: toggleGroup(&state, fold: false)
        case .cycleOrder:
            state.settings.serverOrder = state.settings.serverOrder.next
            state.notice = "Sorted by \(orderWords(state.settings.serverOrder)) (o: the next order)."
            return saveSetting(&state, "ui.sort")
        case .toggleGroups:
            state.settings.groupByTag.toggle()
            state.list.clamp(count: state.listLines)
            state.notice = state.settings.groupByTag
                ? "Grouped by tag: Enter or ← → fold a group; T again: one list." : "One list (T: group by tag)."
            return saveSetting(&state, "ui.group")
        case .toggleMouse:
            state.settings.mouse.toggle()
            state.notice = state.settings.mouse
                ? "Mouse wheel on: the wheel scrolls; to select text hold Shift (m: off)."
                : "Mouse wheel off: the terminal selects text (m: on)."
            return saveSetting(&state, "ui.mouse")
        }
        state.list.scrollToSelection(visibleRows: page, count: state.listLines)
        return []
    }

    /// The order as the title and the notice say it.
    static func orderWords(_ order: ServerOrder) -> String {
        switch order {
        case .name: return "name"
        case .status: return "status"
        case .connected: return "last connected"
        }
    }

    /// Stores the settings `keys` as they are now (a key changed them; the Settings screen shows the same values).
    static func saveSetting(_ state: inout AppState, _ keys: String...) -> [Effect] {
        state.list.scrollToSelection(visibleRows: max(1, ScreenLayout.serverRows(state.size, team: state.team != nil)),
                                     count: state.listLines)
        return [.saveSettings(Dictionary(uniqueKeysWithValues: keys.map { ($0, state.settings.text(for: $0)) }))]
    }

    /// Folds (true), unfolds (false) or flips (nil) the group of the selected line; the selection stays on the
    /// group's heading when its servers fold away.
    static func toggleGroup(_ state: inout AppState, fold: Bool?) {
        guard state.settings.groupByTag, let line = state.list.selected,
              let (heading, group) = state.serverList.group(atEntry: line) else { return }
        let folded = fold ?? !group.collapsed
        guard folded != group.collapsed else { return }
        if folded { state.collapsedTags.insert(group.tag) } else { state.collapsedTags.remove(group.tag) }
        if folded { state.list.selected = heading }
        state.list.clamp(count: state.listLines)
    }

    /// Keys while the filter is typed (`/`).
    static func filterKey(_ state: inout AppState, _ action: FilterAction?, _ key: Key) -> [Effect] {
        switch action {
        case .done?: state.isFiltering = false
        case .clear?:
            state.isFiltering = false
            state.filter.setText("")
        case .up?: state.list.selectPrevious(count: state.listLines)
        case .down?: state.list.selectNext(count: state.listLines)
        case nil:
            _ = state.filter.handle(key)
            state.list.selectFirst(count: state.listLines)
        }
        return []
    }

    static func startCheck(_ state: inout AppState) -> [Effect] {
        guard state.checking == nil else {
            state.notice = "A check is already running."
            return []
        }
        var targets: [Int64: CheckTarget] = [:]
        for server in state.servers {
            guard let id = server.id else { continue }
            targets[id] = CheckTarget(host: server.host, port: server.port)
        }
        guard !targets.isEmpty else { return [] }
        state.checking = CheckProgress(total: targets.count)
        return [.check(targets, timeout: state.settings.checkTimeout)]
    }

    static func periodicCheck(_ state: inout AppState) -> [Effect] {
        guard state.screen.kind == .servers, state.checking == nil, state.settings.checkInterval > 0,
              let last = state.lastCheckAt,
              state.now.timeIntervalSince(last) >= Double(state.settings.checkInterval) else { return [] }
        return startCheck(&state)
    }

    static func checkResult(_ state: inout AppState, id: Int64, status: CheckStatus, latencyMs: Double?, at: Date) {
        state.checks[id] = ServerCheck(status: status, latencyMs: latencyMs, checkedAt: at)
        state.checking?.done += 1
    }

    static func checkFinished(_ state: inout AppState, error: String?, at: Date) {
        let total = state.checking?.total ?? 0
        state.checking = nil
        state.lastCheckAt = at
        // Sorted by status, the list takes the new statuses in once, when the check is over, not row by row.
        if state.settings.serverOrder == .status { state.arrangeServers() }
        let online = state.checks.values.filter { $0.status == .online }.count
        // The line is about the servers screen: a check that ends while a session is open (it was started before
        // connecting) must not cover the session's own status, such as a finished command's exit.
        guard state.screen.kind == .servers else { return }
        state.notice = error ?? "Checked \(total) server\(total == 1 ? "" : "s"): \(online) online."
    }

    static func loaded(_ state: inout AppState, servers: [Server], checks: [Int64: CheckResult],
                       settings: [String: String]) -> [Effect] {
        let first = !state.loaded
        state.loaded = true
        // A load after a change made elsewhere (`essh servers add` while the interface runs, a team sync) keeps the
        // selected server selected, wherever the new list puts it, by its stable uid (a teammate may rename it).
        // (A server without a uid — none from the database has one missing — is found by name.)
        let selected = state.selectedServer
        state.servers = servers
        if let selected, let line = (0..<state.listLines).first(where: { line in
            guard let server = state.serverList.server(atEntry: line) else { return false }
            return selected.uid.isEmpty ? server.name == selected.name : server.uid == selected.uid
        }) {
            state.list.selected = line
        }
        // A marked server removed meanwhile is unmarked, and said so: a fleet run never silently goes to fewer.
        let gone = state.fleet.marked.subtracting(servers.map(\.name))
        if !gone.isEmpty {
            state.fleet.marked.subtract(gone)
            state.notice = "No longer saved, so unmarked: \(gone.sorted().joined(separator: ", "))."
        }
        for (id, result) in checks where state.checks[id] == nil || first {
            state.checks[id] = ServerCheck(status: result.status, latencyMs: result.latencyMs,
                                           checkedAt: result.checkedAt)
        }
        state.settings = Settings(stored: settings)
        state.vault.idleLockMinutes = VaultState.idleLockMinutes(settings)
        if state.settings.serverOrder == .status { state.arrangeServers() }
        state.list.clamp(count: state.listLines)
        if state.list.selected == nil { state.list.selectFirst(count: state.listLines) }
        guard first else { return [] }
        var effects = startCheck(&state) + autostartTunnels(servers)
        if servers.isEmpty && settings[Update.sshConfigOfferSetting] == nil { effects.append(.work(.findSSHConfigHosts)) }
        if !state.autoconnectDone, !state.settings.autoconnect.isEmpty {
            state.autoconnectDone = true
            if let server = servers.first(where: { $0.name == state.settings.autoconnect }) {
                effects += connect(&state, ConnectionProfile(server: server))
            } else {
                state.notice = "Autoconnect: no saved server is named \(state.settings.autoconnect)."
            }
        }
        return effects
    }

    /// The form's server was saved: the form closes (if it is still shown; by now the person may have gone on).
    static func serverSaved(_ state: inout AppState, _ name: String) -> [Effect] {
        if state.screen.kind == .form { state.show(.servers) }
        state.notice = "Saved \(name)."
        return [.load] + syncTeam(state)
    }

    /// The team worker's news: the team line changes; changed shared servers are read again (the selection and
    /// the filter stay, see `loaded`).
    static func team(_ state: inout AppState, _ status: TeamStatus, changed: Bool) -> [Effect] {
        state.team = status
        state.list.clamp(count: state.listLines)
        return changed ? [.load] : []
    }

    /// A sync now, when linked to a team: an editor's edit queued by a save or a removal goes up at once.
    static func syncTeam(_ state: AppState) -> [Effect] {
        state.team == nil ? [] : [.work(.syncTeam)]
    }
}
