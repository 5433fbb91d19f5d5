import Foundation
import Forwarding
import Inventory
import Operations
import TUIKit

/// The Tunnels screen: its keys, the add / edit form, and the figures the tunnel worker posts.
extension Update {
    /// Opens the Tunnels screen (`u` on the Servers screen).
    static func showTunnels(_ state: inout AppState) {
        var tunnels = TunnelsState()
        tunnels.list.selectFirst(count: state.tunnelRows.count)
        state.show(.tunnels(tunnels))
    }

    static func tunnelsKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        guard case .tunnels(var screen) = state.screen else { return [] }
        defer { if case .tunnels = state.screen { state.show(.tunnels(screen)) } }
        if screen.editor != nil { return editorKey(&state, &screen, key) }
        guard let action = TunnelsAction.table.action(for: key) else { return [] }
        let rows = state.tunnelRows
        let selected = screen.list.selected.flatMap { rows.indices.contains($0) ? rows[$0] : nil }
        state.notice = nil
        switch action {
        case .up: screen.list.selectPrevious(count: rows.count)
        case .down: screen.list.selectNext(count: rows.count)
        case .first: screen.list.selectFirst(count: rows.count)
        case .last: screen.list.selectLast(count: rows.count)
        case .help: state.showHelp = true
        case .back: state.show(.servers)
        case .add:
            screen.editor = TunnelEditor(original: nil, server: selected?.status.id.server
                                            ?? state.selectedServer?.name ?? "")
        case .edit:
            guard let row = selected, row.saved else { return [] }
            screen.editor = TunnelEditor(original: row.status.id, server: row.status.id.server)
        case .toggle:
            guard let row = selected else { return [] }
            return [.work(row.status.state.isRunning ? .stopTunnel(row.status.id) : .startTunnel(row.status.id))]
        case .start:
            guard let row = selected else { return [] }
            return [.work(.startTunnel(row.status.id))]
        case .stop:
            guard let row = selected else { return [] }
            return [.work(.stopTunnel(row.status.id))]
        case .restart:
            guard let row = selected else { return [] }
            return [.work(.restartTunnel(row.status.id))]
        case .delete:
            guard let row = selected else { return [] }
            guard row.saved, let server = state.servers.first(where: { $0.name == row.status.id.server }) else {
                return [.work(.forgetTunnel(row.status.id))]
            }
            let rest = server.forwards.filter { $0 != row.status.id.forward }
            return [.work(.forgetTunnel(row.status.id)),
                    .work(.saveForwards(server: server.name, ForwardChanges(replacingWith: rest), autostart: nil,
                                        done: "Deleted \(row.status.id.forward) of \(server.name)."))]
        case .autostart:
            guard let row = selected, let server = state.servers.first(where: { $0.name == row.status.id.server })
            else { return [] }
            let on = !server.autostart
            return [.work(.saveForwards(server: server.name, ForwardChanges(), autostart: on,
                                        done: on ? "\(server.name)'s tunnels start when eSSH starts (A: off)."
                                            : "\(server.name)'s tunnels no longer start with eSSH (A: on)."))]
        }
        return []
    }

    /// A key in the add / edit form.
    static func editorKey(_ state: inout AppState, _ screen: inout TunnelsState, _ key: Key) -> [Effect] {
        guard var editor = screen.editor else { return [] }
        defer { screen.editor = screen.editor == nil ? nil : editor }
        switch TunnelEditorAction.table.action(for: key) {
        case .cancel?:
            screen.editor = nil
            return []
        case .nextField?:
            editor.focus = 1 - editor.focus
            return []
        case .save?:
            let (effects, problem) = saveTunnel(state, editor)
            editor.error = problem
            if problem == nil { screen.editor = nil }
            return effects
        case nil:
            if editor.focus == 0 { _ = editor.server.handle(key) } else { _ = editor.forward.handle(key) }
            editor.error = nil
            return []
        }
    }

    /// The effects that save the form's tunnel, or why it cannot be saved: the server must be saved, the forward
    /// must pass the parser `-L`/`-R`/`-D` use (`SavedTunnels`, the rule `servers edit --forward` follows).
    static func saveTunnel(_ state: AppState, _ editor: TunnelEditor) -> ([Effect], String?) {
        let name = editor.server.text.trimmingCharacters(in: .whitespaces)
        guard let server = state.servers.first(where: { $0.name == name }) else {
            return ([], name.isEmpty ? "Name the server the tunnel goes through."
                        : "No saved server is named \(name).")
        }
        let forward: String
        do throws(ForwardError) {
            forward = try SavedTunnels.normalised(editor.forward.text)
        } catch {
            return ([], error.message)
        }
        var list = server.forwards
        var effects: [Effect] = []
        if let original = editor.original {
            if original == TunnelID(server: name, forward: forward) { return ([], nil) }
            effects.append(.work(.forgetTunnel(original)))
            if original.server == name, let index = list.firstIndex(of: original.forward) {
                list[index] = forward
            } else {
                list.append(forward)
            }
            if original.server != name, let old = state.servers.first(where: { $0.name == original.server }) {
                effects.append(.work(.saveForwards(server: old.name,
                                                   ForwardChanges(replacingWith: old.forwards.filter {
                                                       $0 != original.forward
                                                   }), autostart: nil, done: nil)))
            }
        } else {
            if list.contains(forward) { return ([], "\(name) has \(forward) already.") }
            list.append(forward)
        }
        effects.append(.work(.saveForwards(server: name, ForwardChanges(replacingWith: list), autostart: nil,
                                           done: "Saved \(forward) on \(name) (s starts it).")))
        return (effects, nil)
    }

    /// The tunnel worker's figures: the whole set, so a tunnel no longer known disappears.
    static func tunnelsChanged(_ state: inout AppState, _ statuses: [TunnelStatus]) {
        state.tunnels = Dictionary(statuses.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        if case .tunnels(var screen) = state.screen {
            screen.list.clamp(count: state.tunnelRows.count)
            if screen.list.selected == nil { screen.list.selectFirst(count: state.tunnelRows.count) }
            state.show(.tunnels(screen))
        }
    }

    /// The autostart servers' tunnels, started once after the first load.
    static func autostartTunnels(_ servers: [Server]) -> [Effect] {
        servers.filter(\.autostart).flatMap { server in
            server.forwards.map { Effect.work(.startTunnel(TunnelID(server: server.name, forward: $0))) }
        }
    }
}
