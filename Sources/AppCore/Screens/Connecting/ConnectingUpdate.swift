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

    static func connectingKey(_ state: inout AppState, _ action: ConnectingAction?) -> [Effect] {
        guard action == .cancel else { return [] }
        state.changeConnecting { $0.stage = "Cancelling…" }
        return [.cancelConnect]
    }

    /// The connection failed: back to the servers, with a dialog saying why.
    static func connectFailed(_ state: inout AppState, _ reason: String) -> [Effect] {
        let target = state.connecting?.target
        if target != nil { state.show(.servers) }
        state.prompt = nil
        state.dialog = DialogState(
            purpose: .notice, title: "Could not connect",
            message: (target.map { "\($0.label(localUser: state.localUser)): " } ?? "") + reason,
            buttons: ["OK"])
        return []
    }

    /// Said once, under the first prompt of every session: how commands that need a terminal run (each line fits
    /// 80 columns).
    static let terminalHint = ["Commands that need a terminal (sudo, top, vi, less, apt install…) get yours.",
                               "!COMMAND gives any command a terminal. ^R searches the history; F1: all keys."]

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
        for line in Self.terminalHint { session.scrollback.appendLine(line) }
        var shell: [Effect] = []
        if connecting.openShell { shell = openShell(&session, closeAfter: true) }
        state.show(.session(session))
        state.now = max(state.now, at)
        guard let name = target.name else { return shell }
        return [.recordConnection(name: name, os: os), .loadHistory(name)] + shell
    }
}
