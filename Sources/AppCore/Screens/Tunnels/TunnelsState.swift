import Inventory
import Operations
import TUIKit

/// The Tunnels screen's own state: the selection and the add / edit form when open. The tunnels' figures outlive the
/// screen (`AppState.tunnels`): they keep running while another screen is shown.
struct TunnelsState: Sendable, Equatable {
    var list = ListState()
    var editor: TunnelEditor?
}

/// The small form that adds or edits one saved tunnel.
struct TunnelEditor: Sendable, Equatable {
    /// The tunnel edited (nil: a new one).
    var original: TunnelID?
    var server: TextField
    var forward: TextField
    /// 0: the server field, 1: the forward field.
    var focus: Int
    var error: String?

    init(original: TunnelID?, server: String) {
        self.original = original
        self.server = TextField(server)
        forward = TextField(original?.forward ?? "")
        focus = server.isEmpty ? 0 : 1
    }
}

/// One line of the Tunnels screen: a saved tunnel (or one still running whose server dropped it) and its status.
struct TunnelRow: Sendable, Equatable {
    var status: TunnelStatus
    var saved: Bool
    var autostart: Bool
}

extension AppState {
    /// Every saved tunnel, server by server in the servers' order, then any still running that is no longer saved.
    var tunnelRows: [TunnelRow] {
        var rows: [TunnelRow] = []
        var seen = Set<TunnelID>()
        for server in servers.sorted(by: { $0.name < $1.name }) {
            for forward in server.forwards {
                let id = TunnelID(server: server.name, forward: forward)
                guard seen.insert(id).inserted else { continue }
                rows.append(TunnelRow(status: tunnels[id] ?? TunnelStatus(id: id), saved: true,
                                      autostart: server.autostart))
            }
        }
        for (id, status) in tunnels.sorted(by: { $0.key < $1.key }) where !seen.contains(id) && status.state.isRunning {
            rows.append(TunnelRow(status: status, saved: false, autostart: false))
        }
        return rows
    }

    /// How many tunnels run now.
    var runningTunnels: Int { tunnels.values.filter { $0.state.isRunning }.count }
}
