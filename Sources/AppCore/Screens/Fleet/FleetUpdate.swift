import Operations
import Fleet
import Foundation
import Inventory
import Mail
import TUIKit

/// Fleet commands: marking servers, asking for the command, the run's results coming in, the results screen's keys.
extension Update {
    static func markSelected(_ state: inout AppState) {
        if state.selectedServer == nil {
            // On a group's heading: the group's servers, all marked or (when all are) all unmarked.
            let names = Set(state.selectedServers.map(\.name))
            guard !names.isEmpty else { return }
            if names.isSubset(of: state.fleet.marked) {
                state.fleet.marked.subtract(names)
            } else {
                state.fleet.marked.formUnion(names)
            }
            state.list.selectNext(count: state.listLines)
            return
        }
        guard let server = state.selectedServer else { return }
        if state.fleet.marked.remove(server.name) == nil { state.fleet.marked.insert(server.name) }
        // Space marks and moves on, as in file managers, so a run of servers is marked key by key.
        state.list.selectNext(count: state.listLines)
    }

    /// Marks every server shown; when all shown are marked already, unmarks them.
    static func markAllVisible(_ state: inout AppState) {
        let names = Set(state.visibleServers.map(\.name))
        if !names.isEmpty && names.isSubset(of: state.fleet.marked) {
            state.fleet.marked.subtract(names)
            state.notice = "Unmarked \(names.count) server\(names.count == 1 ? "" : "s")."
        } else {
            state.fleet.marked.formUnion(names)
            state.notice = "\(state.fleet.marked.count) marked. x runs a command on them."
        }
    }

    /// The marked servers (list order), or the selected one when none is marked.
    static func fleetServers(_ state: AppState) -> [Server] {
        if !state.fleet.marked.isEmpty { return state.servers.filter { state.fleet.marked.contains($0.name) } }
        return state.selectedServers
    }

    static func askFleetCommand(_ state: inout AppState) -> [Effect] {
        let servers = fleetServers(state)
        guard !servers.isEmpty else { return [] }
        state.fleet.pendingNames = servers.map(\.name)
        state.fleetQuestion = FleetQuestion(kind: .command, input: TextField())
        guard !state.fleet.historyRequested else { return [] }
        state.fleet.historyRequested = true
        return [.loadFleetHistory]
    }

    /// Keys while `x` asks for the command, then (when some chosen servers log in with a password) checks those
    /// servers' host keys and login methods (`checking`), then asks one password for the ones left; Esc gives up,
    /// nothing runs.
    static func fleetQuestionKey(_ state: inout AppState, _ question: FleetQuestion, _ action: FleetQuestionAction?,
                                 _ key: Key) -> [Effect] {
        var question = question
        if question.search != nil { return fleetHistorySearchKey(&state, question, key) }
        switch action {
        case .historyUp?, .historyDown?, .historySearch?:
            // The password has no history.
            guard case .command = question.kind else { return [] }
            let history = state.fleet.history
            switch action {
            case .historyUp?:
                guard !history.isEmpty else { return [] }
                if question.historyIndex == nil { question.draft = question.input.text }
                let index = max(0, (question.historyIndex ?? history.count) - 1)
                question.historyIndex = index
                question.input.setText(history[index])
            case .historyDown?:
                guard let index = question.historyIndex else { return [] }
                question.historyIndex = index + 1 < history.count ? index + 1 : nil
                question.input.setText(index + 1 < history.count ? history[index + 1] : question.draft)
            default:
                question.search = HistorySearch(draft: question.input.text)
            }
            state.fleetQuestion = question
            return []
        case .cancel?:
            state.fleetQuestion = nil
            if case .checking = question.kind { return [.cancelFleetCheck] }
            return []
        case .run?:
            switch question.kind {
            case .command:
                let command = question.input.text.trimmingCharacters(in: .whitespaces)
                guard !command.isEmpty else { return [] }
                state.fleet.checked = [:]
                let servers = pendingServers(state)
                let withPassword = servers.filter { FleetTargets.receivesAskedPassword(ConnectionProfile(server: $0)) }
                if !withPassword.isEmpty {
                    // The password is asked only for servers whose key is trusted and that take one.
                    state.fleetQuestion = FleetQuestion(kind: .checking(command: command, count: withPassword.count),
                                                        input: TextField())
                    return [.checkFleetLogins(id: state.fleet.nextRunId,
                                              targets: servers.map(ConnectionProfile.init(server:)),
                                              knownHosts: state.settings.knownHosts,
                                              parallel: state.settings.fleetParallel,
                                              timeout: state.settings.fleetTimeout)]
                }
                state.fleetQuestion = nil
                return startFleet(&state, command: command, password: nil)
            case .checking:
                return []
            case .password(let command, _):
                state.fleetQuestion = nil
                let password = question.input.text
                return startFleet(&state, command: command, password: password.isEmpty ? nil : password)
            }
        case nil:
            if case .checking = question.kind { return [] }
            _ = question.input.handle(key)
            state.fleetQuestion = question
            return []
        }
    }

    /// Keys while Ctrl-R searches the fleet history in the question (the session's search, on the fleet's list).
    private static func fleetHistorySearchKey(_ state: inout AppState, _ question: FleetQuestion, _ key: Key)
        -> [Effect] {
        var question = question
        guard var search = question.search else { return [] }
        let history = state.fleet.history
        let found = search.found(in: history)
        switch HistorySearchAction.table.action(for: key) {
        case .run?:
            question.search = nil
            question.input.setText(found ?? search.draft)
            state.fleetQuestion = question
            guard found != nil else { return [] }
            return fleetQuestionKey(&state, question, .run, .enter)
        case .older?:
            search.older(in: history)
            question.search = search
        case .cancel?:
            question.search = nil
            question.input.setText(search.draft)
        case .edit?:
            question.search = nil
            question.input.setText(found ?? search.draft)
        case nil:
            search.type(key, in: history)
            question.search = search
        }
        state.fleetQuestion = question
        return []
    }

    /// The check before the password came back: ask for it when a server is left to receive it, else run at once.
    static func fleetChecked(_ state: inout AppState, id: Int, problems: [String: FleetTarget.Problem],
                             remaining: Int) -> [Effect] {
        guard id == state.fleet.nextRunId, let question = state.fleetQuestion,
              case .checking(let command, _) = question.kind else { return [] }
        state.fleet.checked = problems
        if remaining > 0 {
            state.fleetQuestion = FleetQuestion(kind: .password(command: command, count: remaining),
                                                input: TextField(masked: true))
            return []
        }
        state.fleetQuestion = nil
        return startFleet(&state, command: command, password: nil)
    }

    /// The servers the typed command will run on, in list order.
    private static func pendingServers(_ state: AppState) -> [Server] {
        let names = Set(state.fleet.pendingNames)
        return state.servers.filter { names.contains($0.name) }
    }

    static func startFleet(_ state: inout AppState, command: String, password: String?) -> [Effect] {
        let servers = pendingServers(state)
        guard !servers.isEmpty else { return [] }
        let id = state.fleet.nextRunId
        state.fleet.nextRunId += 1
        state.fleet.lastRun = nil
        let checked = state.fleet.checked
        state.fleet.checked = [:]
        state.show(.fleet(FleetRun(id: id, command: command, names: servers.map(\.name), startedAt: state.now)))
        if state.fleet.history.last != command { state.fleet.history.append(command) }
        return [.runFleet(id: id, targets: servers.map(ConnectionProfile.init(server:)), command: command,
                          knownHosts: state.settings.knownHosts, parallel: state.settings.fleetParallel,
                          timeout: state.settings.fleetTimeout, password: password, checked: checked),
                .appendFleetHistory(command: command, servers: servers.count)]
    }

    static func fleetKey(_ state: inout AppState, _ action: FleetAction?) -> [Effect] {
        // The run is changed in place; leaving its screen happens once it is back in the state.
        let (effects, leave) = state.withFleetRun { run, state in fleetKey(&run, &state, action) } ?? ([], false)
        if leave { state.show(.servers) }
        return effects
    }

    /// A key on the Fleet screen; `leave` when it goes back to the servers.
    private static func fleetKey(_ run: inout FleetRun, _ state: inout AppState, _ action: FleetAction?)
        -> (effects: [Effect], leave: Bool)
    {
        let layout = ScreenLayout.fleet(state.size, servers: run.results.count)
        if run.detail != nil {
            // One server's full output: scroll it; Esc or Enter goes back to the results.
            let rows = layout.detail.height
            switch action {
            case .back, .open: run.detail = nil
            case .up: run.detailView.scroll(by: -1, in: run.detailText, height: rows)
            case .down: run.detailView.scroll(by: 1, in: run.detailText, height: rows)
            case .help: state.showHelp = true
            default: scroll(&run.detailView, in: run.detailText, action, rows: rows, columns: layout.detail.width)
            }
            return ([], false)
        }
        let count = run.results.count
        let rows = layout.output.height
        var effects: [Effect] = []
        var leave = false
        switch action {
        case .up: run.list.selectPrevious(count: count)
        case .down: run.list.selectNext(count: count)
        case .open:
            guard let i = run.list.selected else { break }
            run.openDetail(i)
        case .back:
            // A second Esc while stopping goes back at once: a server stuck (say in a DNS lookup) must not keep the
            // user on this screen. The stopped run finishes in the background; a new run replaces it.
            if run.isRunning && !run.cancelling {
                run.cancelling = true
                state.notice = "Stopping the servers still running… (Esc again: back to the servers now)"
                effects = [.cancelFleet]
            } else {
                leave = true
            }
        case .pageUp, .pageDown, .top, .bottom, .left, .right:
            scroll(&run.groupedView, in: run.grouped, action, rows: rows, columns: layout.output.width)
        case .help: state.showHelp = true
        case .mail:
            if run.isRunning {
                state.notice = "Still running: wait for it (Esc stops the rest), then F6 mails the report."
            } else {
                let subject = CommandReport(server: "\(count) server\(count == 1 ? "" : "s")", user: "",
                                            command: run.command, exitStatus: nil, startedAt: run.startedAt,
                                            duration: 0).defaultSubject
                state.outputTool = .mail(to: state.settings.mailRecipient, subject: subject, tableAvailable: false)
                state.notice = nil
            }
        case nil: break
        }
        run.list.scrollToSelection(visibleRows: max(1, layout.table.height - 1), count: count)
        return (effects, leave)
    }
}

extension Update {
    /// The servers of run `id` that logged in (their command ran, whatever its exit): connected now, in the list at
    /// once (one rebuild of it for the whole run) and in the database.
    static func fleetConnected(_ state: inout AppState, id: Int) -> [Effect] {
        guard let run = state.fleetRun, run.id == id else { return [] }
        let names = Set(run.results.filter { $0.exitStatus != nil }.map(\.name))
        guard !names.isEmpty else { return [] }
        var servers = state.servers
        for i in servers.indices where names.contains(servers[i].name) { servers[i].lastConnectedAt = state.now }
        state.servers = servers
        return servers.filter { names.contains($0.name) }.map { .recordConnection(name: $0.name, os: nil) }
    }

    /// PgUp / PgDn / Home / End on a text `rows` lines high, ← → by half of `columns`; other actions do nothing.
    static func scroll(_ view: inout TextViewState, in text: ScrollbackBuffer, _ action: FleetAction?, rows: Int,
                       columns: Int) {
        let sideways = max(1, columns / 2)
        switch action {
        case .left: view.left = max(0, view.left - sideways)
        case .right: view.left = min(view.left + sideways, 100_000)
        case .pageUp: view.scroll(by: -max(1, rows - 1), in: text, height: rows)
        case .pageDown: view.scroll(by: max(1, rows - 1), in: text, height: rows)
        case .top: view.scrollToTop(in: text)
        case .bottom: view.scrollToBottom(in: text, height: rows)
        default: break
        }
    }
}

extension ScreenLayout {
    /// Title, per-server table (up to half the screen), a rule, grouped output, status line, key bar; `detail` is
    /// the area one server's full output takes.
    static func fleet(_ size: Size, servers: Int) -> (title: Rect, table: Rect, rule: Rect, output: Rect, status: Rect,
                                                       keys: Rect, detail: Rect) {
        let body = max(0, size.height - 4)
        let tableHeight = min(servers + 1, max(2, body / 2))
        let rows = Layout.split(Rect(size), .vertical,
                                [.fixed(1), .fixed(tableHeight), .fixed(1), .fill(1), .fixed(1), .fixed(1)])
        let detail = Layout.split(Rect(size), .vertical, [.fixed(1), .fill(1), .fixed(1), .fixed(1)])[1]
        return (rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], detail)
    }
}
