import Basics
import SSH
import Operations
import Foundation
import Inventory
import NetParsers
import RemoteCommands

/// Connecting: starting a connection, its stages, and how it ends (a session, or a dialog saying why not).
extension Update {
    static func connect(_ state: inout AppState, _ target: ConnectionProfile, openShell: Bool = false,
                        origin: String? = nil) -> [Effect] {
        state.abandonedReconnect = false
        state.show(.connecting(ConnectingState(target: target, stage: "Starting", startedAt: state.now,
                                               openShell: openShell, origin: origin)))
        state.notice = nil
        return [.connect(target, knownHosts: state.settings.knownHosts, keepalive: state.settings.keepalive)]
    }

    /// Esc while connecting goes straight back to the servers: the connection is given up, and what it still sends
    /// (its stages, a question, "cancelled" or even "connected") is dropped when it arrives (`abandonedConnections`).
    static func connectingKey(_ state: inout AppState, _ action: ConnectingAction?) -> [Effect] {
        guard action == .cancel, let connecting = state.connecting else { return [] }
        state.abandonedConnections += 1
        state.show(.servers)
        state.notice = "Stopped connecting to \(connecting.target.label(localUser: state.localUser))."
        return [.cancelConnect]
    }

    /// Whether a message about connecting belongs to a connection given up with Esc. The session worker connects one
    /// at a time and ends each with exactly one `connected` or `connectFailed`, in order, so until as many outcomes
    /// as connections given up have arrived, what comes is theirs.
    static func isAbandoned(_ state: AppState) -> Bool { state.abandonedConnections > 0 }

    /// A question from a connection given up: answered no at once, never shown.
    static func abandonedPrompt(_ request: PromptRequest) -> [Effect] {
        if case .hostKey = request.kind { return [.answer(id: request.id, .hostKey(.reject))] }
        return [.answer(id: request.id, .text(nil))]
    }

    /// The outcome of a connection given up arrived: nothing more will come from it. A session it opened anyway is
    /// closed, unless a newer connection is under way (the worker closes the old session before opening the next,
    /// and a disconnect now would stop the new one).
    static func abandonedOutcome(_ state: inout AppState, opened: Bool) -> [Effect] {
        state.abandonedConnections -= 1
        guard opened, state.connecting == nil, state.session == nil else { return [] }
        return [.disconnect]
    }

    /// The connection failed: back to the servers, with a dialog saying why.
    static func connectFailed(_ state: inout AppState, _ reason: String) -> [Effect] {
        if isAbandoned(state) { return abandonedOutcome(&state, opened: false) }
        let target = state.connecting?.target
        // What the login was told on the way belongs with the reason it failed.
        let told = state.connecting?.told
        if target != nil { state.show(.servers) }
        PromptOverlay.closeConnectionPrompt(&state)
        state.dialog = DialogState(
            purpose: .notice, title: "Could not connect",
            message: (target.map { "\($0.label(localUser: state.localUser)): " } ?? "") + reason
                + (told.map { " (\($0))" } ?? ""),
            buttons: ["OK"])
        return []
    }

    /// Said once, under the first prompt of every session: how commands that need a terminal run (each line fits
    /// 80 columns).
    static let terminalHint = ["Commands that need a terminal (sudo, top, vi, less, apt install…) get yours.",
                               "!COMMAND gives any command a terminal. ^R searches the history; F1: all keys."]

    static func connected(_ state: inout AppState, os: ServerOS?, auth: LoginMethod?, at: Date) -> [Effect] {
        if isAbandoned(state) { return abandonedOutcome(&state, opened: true) }
        guard let connecting = state.connecting else { return [.disconnect] }
        let target = connecting.target
        let known = os ?? target.os
        let osText = known == .auto ? "unknown OS" : known.rawValue
        var session = SessionState(target: target, title: target.label(localUser: state.localUser), os: osText,
                                   connectedAt: at, scrollbackLines: state.settings.scrollback,
                                   parse: state.settings.parse)
        session.remoteOS = known
        session.authUsed = auth
        session.scrollback.appendLine("Connected to \(session.title). Type a command and press Enter.")
        for line in Self.terminalHint { session.scrollback.appendLine(line) }
        var shell: [Effect] = []
        if connecting.openShell { shell = openShell(&session, closeAfter: true) }
        state.show(.session(session))
        state.now = max(state.now, at)
        guard let name = target.name else { return shell }
        return [.recordConnection(name: name, os: os), .loadHistory(name)] + shell
    }
}
