import TextWidth

/// A table as data: column titles and rows of cell text, before any layout. The CLI renders it with
/// `TableFormatter`; the terminal interface can lay the same columns out in its own widgets.
public struct Table: Sendable, Equatable {
    /// The columns, left to right.
    public var columns: [Column]
    /// One array of cells per row, as many cells as columns.
    public var rows: [[String]]

    /// One column: its title and which side its cells hug.
    public struct Column: Sendable, Equatable {
        /// The header text.
        public var title: String
        /// Numbers align right, text left.
        public var alignRight: Bool

        /// A column with a title and alignment.
        public init(_ title: String, alignRight: Bool = false) {
            self.title = title
            self.alignRight = alignRight
        }
    }

    /// A table with the given columns and rows. Cells hold what a remote command printed, and a table goes to a
    /// terminal: control characters are shown (`␛`), never obeyed, and every cell stays on its line.
    public init(columns: [Column], rows: [[String]]) {
        self.columns = columns
        self.rows = rows.map { $0.map(TextSanitizer.line) }
    }

    /// The interfaces view: device, state, MTU, one address per row (IPv4 then IPv6) with its prefix, and the
    /// hardware address on the device's first row. An interface without addresses still gets one row.
    public static func interfaces(_ items: [Interface]) -> Table {
        var rows: [[String]] = []
        for i in items {
            var addresses: [(String, String, String)] = i.ipv4.map {
                ($0.address, $0.prefix.map(String.init) ?? "", $0.scope ?? "")
            }
            addresses += i.ipv6.map { ($0.address, $0.prefix.map(String.init) ?? "", $0.scope ?? "") }
            if addresses.isEmpty { addresses = [("", "", "")] }
            for (n, a) in addresses.enumerated() {
                let first = n == 0
                rows.append([first ? i.name : "", first ? i.state?.rawValue ?? "" : "",
                             first ? i.mtu.map(String.init) ?? "" : "", a.0, a.1, a.2,
                             first ? i.mac ?? "" : ""])
            }
        }
        return Table(columns: [Column("DEVICE"), Column("STATE"), Column("MTU", alignRight: true),
                               Column("IP ADDRESS"), Column("PREFIX", alignRight: true), Column("SCOPE"),
                               Column("HARDWARE ADDRESS")], rows: rows)
    }

    /// The routes view: destination, gateway (blank when direct), interface, metric, flags.
    public static func routes(_ items: [Route]) -> Table {
        Table(columns: [Column("DESTINATION"), Column("GATEWAY"), Column("INTERFACE"),
                        Column("METRIC", alignRight: true), Column("FLAGS")],
              rows: items.map { [$0.destination, $0.gateway ?? "", $0.interface ?? "",
                                 $0.metric.map(String.init) ?? "", $0.flags ?? ""] })
    }

    /// The sockets view: protocol, local and remote endpoints, state (in the one spelling, see `Socket`), pid,
    /// program.
    public static func sockets(_ items: [Socket]) -> Table {
        Table(columns: [Column("PROTO"), Column("LOCAL"), Column("REMOTE"), Column("STATE"),
                        Column("PID", alignRight: true), Column("PROGRAM")],
              rows: items.map { [$0.proto ?? "", $0.local, $0.remote ?? "", $0.state ?? "",
                                 $0.pid.map(String.init) ?? "", $0.program ?? ""] })
    }
}
