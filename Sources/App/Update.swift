import Operations
import Foundation
import Inventory
import NetParsers
import Reachability
import SSH
import TUIKit

/// The state machine: `update` applies one message to the state and returns the effects to run. Pure — no I/O,
/// no clock (time arrives in messages), no threads.
enum Update {
    static func update(_ state: inout AppState, _ message: Message) -> [Effect] {
        switch message {
        case .input(let event): return input(&state, event)
        case .tick(let now):
            state.now = now
            state.tick += 1
            if var session = state.session, session.running == nil,
               now.timeIntervalSince(session.lastKeepalive) >= SessionState.keepaliveInterval {
                session.lastKeepalive = now
                state.session = session
                return [.keepalive]
            }
            return periodicCheck(&state)
        case .loaded(let servers, let checks, let settings):
            return loaded(&state, servers: servers, checks: checks, settings: settings)
        case .storeFailed(let text):
            state.notice = text
            return []
        case .checkResult(let id, let status, let latency, let at):
            state.checks[id] = ServerCheck(status: status, latencyMs: latency, checkedAt: at)
            state.checking?.done += 1
            return []
        case .checkFinished(let error, let at):
            let total = state.checking?.total ?? 0
            state.checking = nil
            state.lastCheckAt = at
            let online = state.checks.values.filter { $0.status == "online" }.count
            state.notice = error ?? "Checked \(total) server\(total == 1 ? "" : "s"): \(online) online."
            return []
        case .serverSaved(let name):
            state.form = nil
            state.screen = .servers
            state.notice = "Saved \(name)."
            return [.load]
        case .serverSaveFailed(let text):
            state.form?.error = text
            return []
        case .serverDeleted(let name):
            state.notice = "Deleted \(name)."
            return [.load]
        case .settingsSaved:
            state.notice = "Settings saved."
            return []
        case .handedBack(let outcome):
            return handedBack(&state, outcome)
        case .mailFinished, .mailRetried, .outputSaved:
            return outputResult(&state, message)
        case .fleetStarted, .fleetResult, .fleetFinished:
            return fleetMessage(&state, message)
        default:
            captureOutput(&state, message)
            return Update.connection(&state, message)
        }
    }

    // MARK: input

    static func input(_ state: inout AppState, _ event: InputEvent) -> [Effect] {
        switch event {
        case .resize(let size):
            state.size = size
            return []
        case .wheelUp, .wheelDown:
            guard state.screen == .session, state.dialog == nil, state.prompt == nil else { return [] }
            scrollOutput(&state, by: event == .wheelUp ? -3 : 3)
            return []
        case .key(let key):
            if state.showHelp {
                if key == .escape || key == .function(1) || key == .character("?") || key == .character("q")
                    || key == .enter {
                    state.showHelp = false
                }
                return []
            }
            if state.dialog != nil { return dialogKey(&state, key) }
            if state.prompt != nil { return promptKey(&state, key) }
            switch state.screen {
            case .servers: return serversKey(&state, key)
            case .form: return formKey(&state, key)
            case .connecting:
                guard key == .escape || key == .ctrl("c") else { return [] }
                state.connecting?.stage = "Cancelling…"
                return [.cancelConnect]
            case .session: return sessionKey(&state, key)
            case .fleet: return fleetKey(&state, key)
            case .summary:
                switch (state.summary?.keys ?? SummaryAction.table).action(for: key) {
                case .save:
                    guard let draft = state.summary?.unsaved else { return [] }
                    state.summary = nil
                    state.form = .server(draft: draft)
                    state.screen = .form
                    return []
                case .back:
                    if state.summary?.returnTo == .session, state.session != nil {
                        state.summary = nil
                        state.screen = .session
                        return []
                    }
                    state.summary = nil
                    state.screen = .servers
                    return [.load]
                case .quit:
                    state.shouldQuit = true
                    return []
                case nil: return []
                }
            }
        }
    }

    // MARK: servers

    static func serversKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        if state.isFiltering {
            switch key {
            case .enter: state.isFiltering = false
            case .escape:
                state.isFiltering = false
                state.filter.setText("")
            case .up: state.list.selectPrevious(count: state.visibleServers.count)
            case .down: state.list.selectNext(count: state.visibleServers.count)
            default:
                _ = state.filter.handle(key)
                state.list.selectFirst(count: state.visibleServers.count)
            }
            return []
        }
        if state.fleet.question != nil { return fleetQuestionKey(&state, key) }
        guard let action = ServersAction.table.action(for: key) else {
            if key == .escape && !state.filter.text.isEmpty { state.filter.setText("") }
            return []
        }
        let count = state.visibleServers.count
        let page = max(1, ScreenLayout.serverRows(state.size))
        state.notice = nil
        switch action {
        case .up: state.list.selectPrevious(count: count)
        case .down: state.list.selectNext(count: count)
        case .pageUp: state.list.pageUp(count: count, pageSize: page)
        case .pageDown: state.list.pageDown(count: count, pageSize: page)
        case .first: state.list.selectFirst(count: count)
        case .last: state.list.selectLast(count: count)
        case .filter: state.isFiltering = true
        case .help: state.showHelp = true
        case .quit: state.shouldQuit = true
        case .add:
            state.form = .server(nil)
            state.screen = .form
        case .edit:
            guard let server = state.selectedServer else { return [] }
            state.form = .server(server)
            state.screen = .form
        case .settings:
            state.form = .settings(state.settings)
            state.screen = .form
        case .quickConnect:
            state.form = .quickConnect
            state.screen = .form
        case .delete:
            guard let server = state.selectedServer else { return [] }
            state.dialog = DialogState(purpose: .confirmDelete(server.name), title: "Delete server",
                                       message: "Delete \(server.name) (\(server.host))? Its history goes too.",
                                       buttons: ["Delete", "Keep"], selected: 1)
        case .check: return startCheck(&state)
        case .connect:
            guard let server = state.selectedServer else { return [] }
            return connect(&state, ConnectTarget(server: server))
        case .shell:
            guard let server = state.selectedServer else { return [] }
            return connect(&state, ConnectTarget(server: server), openShell: true)
        case .mark: markSelected(&state)
        case .markAll: markAllVisible(&state)
        case .runOnMarked: askFleetCommand(&state)
        }
        state.list.scrollToSelection(visibleRows: page, count: count)
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
        guard state.screen == .servers, state.checking == nil, state.settings.checkInterval > 0,
              let last = state.lastCheckAt,
              state.now.timeIntervalSince(last) >= Double(state.settings.checkInterval) else { return [] }
        return startCheck(&state)
    }

    static func loaded(_ state: inout AppState, servers: [Server], checks: [Int64: CheckResult],
                       settings: [String: String]) -> [Effect] {
        let first = !state.loaded
        state.loaded = true
        state.servers = servers
        for (id, result) in checks where state.checks[id] == nil || first {
            state.checks[id] = ServerCheck(status: result.status, latencyMs: result.latencyMs,
                                           checkedAt: result.checkedAt)
        }
        state.settings = Settings(stored: settings)
        state.list.clamp(count: state.visibleServers.count)
        if state.list.selected == nil { state.list.selectFirst(count: state.visibleServers.count) }
        guard first else { return [] }
        var effects = startCheck(&state)
        if !state.autoconnectDone, !state.settings.autoconnect.isEmpty {
            state.autoconnectDone = true
            if let server = servers.first(where: { $0.name == state.settings.autoconnect }) {
                effects += connect(&state, ConnectTarget(server: server))
            } else {
                state.notice = "Autoconnect: no saved server is named \(state.settings.autoconnect)."
            }
        }
        return effects
    }

    // MARK: dialogs and prompts

    static func dialogKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        guard var dialog = state.dialog else { return [] }
        switch key {
        case .left, .backTab: dialog.selected = max(0, dialog.selected - 1)
        case .right, .tab: dialog.selected = min(dialog.buttons.count - 1, dialog.selected + 1)
        case .enter: return closeDialog(&state, choice: dialog.selected)
        case .escape: return closeDialog(&state, choice: nil)
        case .character(let c):
            // The first letter of a button chooses it.
            if let i = dialog.buttons.firstIndex(where: { $0.lowercased().first == Character(c.lowercased()) }) {
                return closeDialog(&state, choice: i)
            }
        default: break
        }
        state.dialog = dialog
        return []
    }

    static func closeDialog(_ state: inout AppState, choice: Int?) -> [Effect] {
        guard let dialog = state.dialog else { return [] }
        state.dialog = nil
        switch dialog.purpose {
        case .notice: return []
        case .confirmDelete(let name):
            return choice == 0 ? [.deleteServer(name)] : []
        case .hostKey(let id):
            let decision: HostKeyDecision
            switch choice {
            case 0: decision = .acceptAndSave
            case 1: decision = .acceptOnce
            default: decision = .reject
            }
            return [.answer(id: id, .hostKey(decision))]
        }
    }

    static func promptKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        guard var prompt = state.prompt else { return [] }
        switch key {
        case .escape:
            state.prompt = nil
            return [.answer(id: prompt.id, .text(nil))]
        case .enter:
            prompt.answers.append(prompt.input.text)
            if prompt.answers.count >= prompt.labels.count {
                state.prompt = nil
                return [.answer(id: prompt.id, .text(prompt.answers))]
            }
            let echo = prompt.echo.indices.contains(prompt.answers.count) ? prompt.echo[prompt.answers.count] : false
            prompt.input = TextField(masked: !echo)
        default:
            _ = prompt.input.handle(key)
        }
        state.prompt = prompt
        return []
    }
}
