import Operations
import Foundation
import Inventory
import TUIKit

/// What the Servers screen draws from, derived once when the servers or the filter change, so a frame or a key
/// costs the rows on screen, not one pass (or several) over every saved server.
struct ServerList: Sendable {
    /// One server with what its row shows that does not change from frame to frame.
    struct Row: Sendable {
        var server: Server
        /// `user@host:port`.
        var address: String
        /// Display width of the name.
        var nameWidth: Int
        /// The last connection's date (`2026-11-24`, UTC) for dates too old for `5 min ago`; nil: never.
        var date: String?
    }

    private(set) var rows: [Row]
    /// Indices into `rows` of the servers the filter lets through, in list order.
    private(set) var visibleRows: [Int]
    /// The servers the filter lets through.
    private(set) var visible: [Server]
    /// The widest visible name's display width (0 when none).
    private(set) var widestVisibleName: Int

    init(_ servers: [Server], filter: String, localUser: String) {
        rows = servers.map { server in
            Row(server: server, address: ConnectionProfile(server: server).label(localUser: localUser),
                nameWidth: DisplayWidth.of(server.name), date: server.lastConnectedAt.map(Self.day))
        }
        visibleRows = []
        visible = []
        widestVisibleName = 0
        refilter(filter)
    }

    /// Applies a new filter text.
    mutating func refilter(_ text: String) {
        let needle = text.trimmingCharacters(in: .whitespaces)
        let filter = ServerFilter(needle)
        visibleRows = needle.isEmpty ? Array(rows.indices) : rows.indices.filter { filter.matches(rows[$0].server) }
        visible = visibleRows.map { rows[$0].server }
        widestVisibleName = visibleRows.reduce(0) { max($0, rows[$1].nameWidth) }
    }

    /// The row of the `index`th visible server.
    func visibleRow(_ index: Int) -> Row { rows[visibleRows[index]] }

    /// `yyyy-MM-dd` in UTC, by calendar arithmetic (days from civil, H. Hinnant): no formatter per row.
    static func day(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let pad = { (n: Int, width: Int) in String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
