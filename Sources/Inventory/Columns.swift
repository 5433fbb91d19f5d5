import GRDB

// Each table's columns, named once (GRDB's habit), and the requests the store makes by them.

extension Server {
    /// The table's columns.
    public enum Columns {
        /// The `name` column.
        public static let name = Column("name")
    }

    /// The server called `name` (names are unique).
    static func named(_ name: String) -> QueryInterfaceRequest<Server> { filter(Columns.name == name) }
}

extension CheckResult {
    /// The table's columns.
    public enum Columns {
        /// The `id` column.
        public static let id = Column("id")
        /// The `serverId` column.
        public static let serverId = Column("serverId")
    }
}

extension HistoryEntry {
    /// The table's columns.
    public enum Columns {
        /// The `id` column.
        public static let id = Column("id")
        /// The `serverId` column.
        public static let serverId = Column("serverId")
        /// The `ranAt` column.
        public static let ranAt = Column("ranAt")
    }
}

extension OutboxMail {
    /// The table's columns.
    public enum Columns {
        /// The `id` column.
        public static let id = Column("id")
        /// The `sentAt` column.
        public static let sentAt = Column("sentAt")
    }
}
