import Operations
import Foundation
import TUIKit

/// The state machine: `update` applies one message to the state and returns the effects to run. Pure — no I/O,
/// no clock (time arrives in messages), no threads. Every message has its own case here, routed to the screen or
/// overlay it belongs to; every key is looked up once in the key table of whoever takes it (the top overlay, else
/// the screen) and the action is passed down.
package enum Update {
    package static func update(_ state: inout AppState, _ message: Message) -> [Effect] {
        switch message {
        case .input(let event): return input(&state, event)
        case .tick(let now): return tick(&state, now)

        // The store and the checks: the Servers screen's data.
        case .loaded(let servers, let checks, let settings):
            return loaded(&state, servers: servers, checks: checks, settings: settings)
        case .storeFailed(let text):
            state.notice = text
            return []
        case .checkResult(let id, let status, let latency, let at):
            checkResult(&state, id: id, status: status, latencyMs: latency, at: at)
            return []
        case .checkFinished(let error, let at):
            checkFinished(&state, error: error, at: at)
            // Published to the team at once when this member publishes checks (the sync decides).
            return syncTeam(state)
        case .serverSaved(let name): return serverSaved(&state, name)
        case .serverSaveFailed(let text):
            // Without a form (the switch after a key install), the status line says it.
            if state.form == nil { state.notice = text }
            state.changeForm { $0.error = text }
            return []
        case .serverDeleted(let name):
            state.notice = "Deleted \(name)."
            return [.load] + syncTeam(state)
        case .team(let status, let changed): return team(&state, status, changed: changed)
        case .settingsSaved:
            // A key that changed one setting (the sort order, the mouse) has said what it did already.
            if state.notice == nil { state.notice = "Settings saved." }
            return []
        case .destinationResolved(let resolution): return destinationResolved(&state, resolution)
        case .destinationFailed(let text):
            state.changeForm { $0.setError("dest", text) }
            return []
        case .sshConfigHosts(let hosts): return offerSSHConfigImport(&state, hosts: hosts)
        case .sshConfigImported(let line):
            state.notice = line
            return [.load]

        // Connecting.
        case .connectStage(let stage):
            if isAbandoned(state) { return [] }
            if reconnecting(state) { reconnectStage(&state, stage) }
            state.changeConnecting { $0.stage = stage }
            return []
        case .connectHop(let progress):
            if !isAbandoned(state) { state.changeConnecting { $0.record(progress) } }
            return []
        case .connectBanner(let text):
            if !isAbandoned(state) { state.changeConnecting { $0.banner = ConnectingState.bannerLines(text) } }
            return []
        case .prompt(let request):
            if isAbandoned(state) && request.belongsToConnection { return abandonedPrompt(request) }
            PromptOverlay.show(&state, request)
            return []
        case .connectFailed(let reason):
            if state.abandonedReconnect && state.connecting == nil {
                state.abandonedReconnect = false
                return []
            }
            if reconnecting(state) {
                reconnectFailed(&state, reason)
                return []
            }
            return connectFailed(&state, reason)
        case .connected(let os, let auth, let at):
            if reconnecting(state) { return reconnected(&state, os: os, auth: auth, at: at) }
            state.abandonedReconnect = false
            return connected(&state, os: os, auth: auth, at: at)

        // The session: output is appended in place, never by copying the session.
        case .history(let commands):
            state.withSession { session, _ in session.history = commands }
            return []
        case .fleetHistory(let commands):
            // Runs started before the history arrived stay newest.
            state.fleet.history = commands + state.fleet.history
            return []
        case .output(let id, let bytes):
            state.withSession { session, _ in session.receive(id: id, bytes) }
            return []
        case .commandFinished(let id, let status, let signal, let at):
            return state.withSession { session, _ in
                session.commandFinished(id: id, status: status, signal: signal, at: at)
            } ?? []
        case .commandFailed(let id, let text, let lost, let at):
            return commandFailed(&state, id: id, message: text, connectionLost: lost, at: at)
        case .quickFinished(let id, let result, let at):
            state.withSession { session, _ in session.quickFinished(id: id, result, at: at) }
            return []
        case .shellMode(let mode, let notice):
            state.withSession { session, _ in session.shellChanged(mode, notice: notice) }
            return []
        case .connectionLost(let reason, let at):
            guard state.session != nil else { return [] }
            state.now = max(state.now, at)
            return sessionLost(&state, reason: reason)
        case .handedBack(let outcome): return handedBack(&state, outcome)

        // The output tools.
        case .mailFinished(let result, let to):
            mailFinished(&state, result, to: to)
            return []
        case .mailRetried(let results, let error):
            mailRetried(&state, results, error: error)
            return []
        case .outputSaved(let path, let error):
            outputSaved(&state, path: path, error: error)
            return []

        // Fleet runs.
        case .fleetStarted(let id, let index):
            state.withFleetRun { run, state in run.started(id: id, index: index, at: state.now) }
            return []
        case .fleetOutput(let id, let index, let stream, let bytes):
            state.withFleetRun { run, _ in run.receivedOutput(bytes, stream, id: id, index: index) }
            return []
        case .fleetResult(let id, let index, let result):
            state.withFleetRun { run, _ in run.received(result, id: id, index: index) }
            return []
        case .fleetFinished(let id, let at):
            state.now = max(state.now, at)
            let connected = fleetConnected(&state, id: id)
            // The "stopping…" notice is the Fleet screen's; a run that ends behind another screen leaves its line.
            if state.withFleetRun({ run, _ in run.finished(id: id, at: at) }) == true, state.currentKind == .fleet {
                state.notice = nil
            }
            return connected
        case .fleetChecked(let id, let problems, let remaining):
            return fleetChecked(&state, id: id, problems: problems, remaining: remaining)

        // Tunnels.
        case .tunnels(let statuses):
            tunnelsChanged(&state, statuses)
            return []
        case .forwardsSaved(let notice):
            if let notice { state.notice = notice }
            return [.load]
        case .forwardsSaveFailed(let text):
            state.notice = text
            return []
        case .files(let event): return filesEvent(&state, event)
        case .vault(let event): return vaultEvent(&state, event)
        case .keyInstall(let event): return keyInstallEvent(&state, event)
        }
    }

    static func tick(_ state: inout AppState, _ now: Date) -> [Effect] {
        state.now = now
        state.tick += 1
        let locked = idleLock(&state)
        // An idle session's connection is checked every tick (a second): a server that closed it is noticed at once.
        if let session = state.session, session.running == nil, session.link == .up { return locked + [.keepalive] }
        return locked + periodicCheck(&state)
    }

    // MARK: input

    static func input(_ state: inout AppState, _ event: InputEvent) -> [Effect] {
        switch event {
        case .resize(let size):
            state.size = size
            return []
        case .wheelUp, .wheelDown:
            let lines = event == .wheelUp ? -3 : 3
            if case .help(var help)? = state.overlays.top {
                HelpOverlay.key(&state, &help, lines < 0 ? .up : .down)
            } else if state.overlays.isEmpty, state.screen.kind == .session {
                scrollOutput(&state, by: lines)
            }
            return []
        case .key(let key):
            if GlobalAction.table.action(for: key) == .suspend { return [.suspend] }
            if let overlay = state.overlays.top { return overlayKey(&state, overlay, key) }
            return screenKey(&state, key)
        }
    }

    /// The top overlay takes the key: its table is looked up here, once.
    static func overlayKey(_ state: inout AppState, _ overlay: Overlay, _ key: Key) -> [Effect] {
        switch overlay {
        case .help(var help):
            HelpOverlay.key(&state, &help, HelpAction.table.action(for: key))
            return []
        case .dialog(let dialog):
            return DialogOverlay.key(&state, dialog, DialogAction.table.action(for: key), key)
        case .prompt(let prompt):
            return PromptOverlay.key(&state, prompt, PromptAction.table.action(for: key), key)
        case .fleetQuestion(let question):
            return fleetQuestionKey(&state, question, FleetQuestionAction.table.action(for: key), key)
        case .outputTool(let tool):
            return outputToolKey(&state, tool, OutputToolAction.table.action(for: key), key)
        case .filesConflict(let question):
            return filesConflictKey(&state, question, FilesConflictAction.table.action(for: key))
        }
    }

    /// The screen takes the key: its table is looked up here, once (a bar open on it looks up its own first).
    static func screenKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        switch state.screen {
        case .servers(let filtering):
            if filtering { return filterKey(&state, FilterAction.table.action(for: key), key) }
            return serversKey(&state, ServersAction.table.action(for: key))
        case .form: return formKey(&state, FormAction.table.action(for: key), key)
        case .connecting: return connectingKey(&state, ConnectingAction.table.action(for: key))
        case .session: return sessionKey(&state, SessionAction.table.action(for: key), key)
        case .fleet: return fleetKey(&state, FleetAction.table.action(for: key))
        case .summary(let summary): return summaryKey(&state, summary.keys.action(for: key))
        case .tunnels: return tunnelsKey(&state, key)
        case .files: return filesKey(&state, key)
        }
    }
}
