import Foundation
import Inventory
import Operations
import TUIKit

/// What the Servers screen draws from, derived once when the servers, the filter, the order or the grouping change,
/// so a frame or a key costs the rows on screen, not one pass (or several) over every saved server.
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
        /// What the filter looks at.
        var keys: ServerFilter.Keys
    }

    /// How the list is arranged: the filter's text, the order, and whether servers are grouped under their tags
    /// (and which groups are folded).
    struct Arrangement: Sendable, Equatable {
        var filter = ""
        var order = ServerOrder.name
        var grouped = false
        /// Folded groups, by tag ("" for the servers without a tag).
        var collapsed: Set<String> = []
    }

    /// A group's heading: a tag and the visible servers under it.
    struct Group: Sendable, Equatable {
        /// The tag ("" for the servers that have none).
        var tag: String
        /// Indices into `rows`, in list order.
        var members: [Int]
        var collapsed: Bool
    }

    /// One line of the list: a group's heading, or a server.
    enum Entry: Sendable, Equatable {
        case group(Group)
        /// An index into `rows`.
        case server(Int)
    }

    private(set) var rows: [Row]
    /// Indices into `rows` of the servers the filter lets through, in list order (ranked by the filter's text when
    /// it has any, else in `order`).
    private(set) var visibleRows: [Int]
    /// The servers the filter lets through, each once.
    private(set) var visible: [Server]
    /// The lines shown: the visible servers, or the groups with the servers of the open ones.
    private(set) var entries: [Entry]
    /// The widest visible name's display width (0 when none).
    private(set) var widestVisibleName: Int
    private(set) var arrangement: Arrangement
    /// Whether any server is a team's shared one (the list then has a narrow column for the marker).
    private(set) var hasShared: Bool

    init(_ servers: [Server], filter: String, localUser: String) {
        self.init(servers, arrangement: Arrangement(filter: filter), checks: [:], localUser: localUser)
    }

    init(_ servers: [Server], arrangement: Arrangement, checks: [Int64: ServerCheck], localUser: String) {
        rows = servers.map { server in
            let address = ConnectionProfile(server: server).label(localUser: localUser)
            return Row(server: server, address: address, nameWidth: DisplayWidth.of(server.name),
                       date: server.lastConnectedAt.map(Self.day), keys: ServerFilter.Keys(server, address: address))
        }
        hasShared = servers.contains { $0.isShared }
        visibleRows = []
        visible = []
        entries = []
        widestVisibleName = 0
        self.arrangement = arrangement
        arrange(arrangement, checks: checks)
    }

    /// Applies a new filter text (the order and grouping stay).
    mutating func refilter(_ text: String, checks: [Int64: ServerCheck] = [:]) {
        var next = arrangement
        next.filter = text
        arrange(next, checks: checks)
    }

    /// Filters, orders and groups the rows again.
    mutating func arrange(_ arrangement: Arrangement, checks: [Int64: ServerCheck]) {
        self.arrangement = arrangement
        let filter = ServerFilter(arrangement.filter.trimmingCharacters(in: .whitespaces))
        let rank = Self.rank(arrangement.order, checks: checks)
        var picked: [(index: Int, score: Int, key: Double)] = []
        picked.reserveCapacity(rows.count)
        for i in rows.indices {
            if filter.isEmpty {
                picked.append((i, 0, rank(rows[i].server)))
            } else if let score = filter.score(rows[i].server, keys: rows[i].keys) {
                picked.append((i, score, rank(rows[i].server)))
            }
        }
        // The filter's best match first; equal scores (and no free text) in the chosen order, then the list's. By name
        // and without free text the rows are in order already.
        if filter.ranks || arrangement.order != .name { picked.sort(by: Self.before) }
        visibleRows = picked.map(\.index)
        visible = visibleRows.map { rows[$0].server }
        widestVisibleName = visibleRows.reduce(0) { max($0, rows[$1].nameWidth) }
        entries = arrangement.grouped ? groupEntries(arrangement.collapsed) : visibleRows.map(Entry.server)
    }

    private static func before(_ a: (index: Int, score: Int, key: Double), _ b: (index: Int, score: Int, key: Double))
        -> Bool
    {
        if a.score != b.score { return a.score > b.score }
        if a.key != b.key { return a.key < b.key }
        return a.index < b.index
    }

    /// Groups by tag, tags in alphabetical order (any case), the servers without a tag last; a server with two tags
    /// shows under each.
    private func groupEntries(_ collapsed: Set<String>) -> [Entry] {
        var members: [String: [Int]] = [:]
        var spelling: [String: String] = [:]
        for i in visibleRows {
            let tags = rows[i].server.tags
            if tags.isEmpty { members["", default: []].append(i) }
            for tag in tags {
                let key = tag.lowercased()
                if spelling[key] == nil { spelling[key] = tag }
                if members[key]?.last != i { members[key, default: []].append(i) }
            }
        }
        let keys = members.keys.filter { !$0.isEmpty }.sorted() + (members[""] == nil ? [] : [""])
        var entries: [Entry] = []
        for key in keys {
            let tag = spelling[key] ?? ""
            let folded = collapsed.contains(tag)
            let group = Group(tag: tag, members: members[key] ?? [], collapsed: folded)
            entries.append(.group(group))
            if !folded { entries += group.members.map(Entry.server) }
        }
        return entries
    }

    /// The sort key of a server in `order` (smaller first).
    static func rank(_ order: ServerOrder, checks: [Int64: ServerCheck]) -> (Server) -> Double {
        switch order {
        case .name:
            // The list's own order: the store's, by name ignoring case.
            return { _ in 0 }
        case .connected:
            // The most recent first; never connected last.
            return { server in server.lastConnectedAt.map { -$0.timeIntervalSince1970 } ?? .infinity }
        case .status:
            return { server in
                guard let check = server.id.flatMap({ checks[$0] }) else { return 1e12 }
                switch check.status {
                case .online: return min(check.latencyMs ?? 1e8, 1e8)
                case .notSSH: return 1e9 + 1
                case .refused: return 1e9 + 2
                case .timeout: return 1e9 + 3
                case .unreachable: return 1e9 + 4
                case .dnsError: return 1e9 + 5
                }
            }
        }
    }

    /// The row of the `index`th visible server.
    func visibleRow(_ index: Int) -> Row { rows[visibleRows[index]] }

    /// The server on line `index` (nil for a group's heading).
    func server(atEntry index: Int) -> Server? {
        guard entries.indices.contains(index), case .server(let row) = entries[index] else { return nil }
        return rows[row].server
    }

    /// The group whose heading is line `index`, or that the server on line `index` is listed under.
    func group(atEntry index: Int) -> (line: Int, group: Group)? {
        guard entries.indices.contains(index) else { return nil }
        for line in stride(from: index, through: 0, by: -1) {
            if case .group(let group) = entries[line] { return (line, group) }
        }
        return nil
    }

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
