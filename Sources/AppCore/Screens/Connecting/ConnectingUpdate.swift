import Basics
import SSH
import Operations
import Foundation
import Inventory
import NetParsers
import RemoteCommands

/// Connecting: starting a connection, its stages, and how it ends (a session, or a dialog saying why not).
extension Update {
    static func connect(_ state: inout AppState, _ target: ConnectionProfile, returnTo: Screen? = nil,
                        openShell: Bool = false) -> [Effect] {
        state.connecting = ConnectingState(target: target, stage: "Starting", startedAt: state.now,
                                           returnTo: returnTo ?? state.screen, openShell: openShell)
        state.screen = .connecting
        state.notice = nil
        return [.connect(target, knownHosts: state.settings.knownHosts)]
    }

    static func connectingKey(_ state: inout AppState, _ action: ConnectingAction?) -> [Effect] {
        guard action == .cancel else { return [] }
        state.connecting?.stage = "Cancelling…"
        return [.cancelConnect]
    }

    static func connectFailed(_ state: inout AppState, _ reason: String) -> [Effect] {
        let target = state.connecting?.target
        state.screen = state.connecting?.returnTo ?? .servers
        if state.screen == .connecting || state.screen == .form { state.screen = .servers }
        state.connecting = nil
        state.prompt = nil
        state.dialog = DialogState(
            purpose: .notice, title: "Could not connect",
            message: (target.map { "\($0.label(localUser: state.localUser)): " } ?? "") + reason,
            buttons: ["OK"])
        return []
    }

    static func connected(_ state: inout AppState, os: ServerOS?, auth: LoginMethod?, at: Date) -> [Effect] {
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
        var shell: [Effect] = []
        if connecting.openShell { shell = openShell(&session, closeAfter: true) }
        state.session = session
        state.connecting = nil
        state.screen = .session
        state.now = max(state.now, at)
        guard let name = target.name else { return shell }
        return [.recordConnection(name: name, os: os), .loadHistory(name)] + shell
    }
}
