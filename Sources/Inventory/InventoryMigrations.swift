import GRDB

/// The schema's history. A migration, once shipped, is never edited: changes come as new migrations appended here.
enum InventoryMigrations {
    /// `PRAGMA application_id` of an eSSH database: "eSSH" in ASCII. Tells our files from other SQLite files.
    static let applicationID: Int32 = 0x6553_5348

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-servers-checks-history") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.create(table: "server") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("host", .text).notNull()
                t.column("port", .integer).notNull().defaults(to: 22)
                t.column("user", .text)
                t.column("auth", .text).notNull()
                t.column("keyPath", .text)
                t.column("os", .text).notNull().defaults(to: "auto")
                t.column("tags", .text).notNull().defaults(to: "")  // comma-separated
                t.column("note", .text).notNull().defaults(to: "")
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
                t.column("lastConnectedAt", .datetime)
            }
            try db.create(table: "checkResult") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("server", onDelete: .cascade).notNull()
                t.column("status", .text).notNull()
                t.column("latencyMs", .double)
                t.column("banner", .text)
                t.column("error", .text)
                t.column("checkedAt", .datetime).notNull()
            }
            try db.create(table: "historyEntry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("server", onDelete: .cascade).notNull()
                t.column("command", .text).notNull()
                t.column("ranAt", .datetime).notNull()
                t.column("exitStatus", .integer)
            }
        }
        // Settings came with the TUI, after servers, checks and history.
        migrator.registerMigration("v2-settings") { db in
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        // The mail outbox: a message that could not be sent waits here for a retry (issue 6).
        migrator.registerMigration("v3-mail-outbox") { db in
            try db.create(table: "outboxMail") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("createdAt", .datetime).notNull()
                t.column("recipients", .text).notNull()  // comma-separated, as in the To header
                t.column("subject", .text).notNull()
                t.column("message", .blob).notNull()  // the whole message, headers and body, as sendmail gets it
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("lastError", .text)
                t.column("lastAttemptAt", .datetime)
                t.column("sentAt", .datetime)
            }
            try db.create(index: "outboxMail_pending", on: "outboxMail", columns: ["sentAt", "id"])
        }
        // Algorithm lists for old devices (issue 12): OpenSSH's Ciphers, KexAlgorithms, MACs, HostKeyAlgorithms
        // syntax, NULL for eSSH's defaults.
        migrator.registerMigration("v4-server-algorithms") { db in
            try db.alter(table: "server") { t in
                t.add(column: "kexAlgorithms", .text)
                t.add(column: "hostKeyAlgorithms", .text)
                t.add(column: "ciphers", .text)
                t.add(column: "macs", .text)
            }
        }
        // The interface's fleet commands (`x`) have a history of their own, one for every fleet run (issue 14).
        migrator.registerMigration("v5-fleet-history") { db in
            try db.create(table: "fleetHistoryEntry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("command", .text).notNull()
                t.column("ranAt", .datetime).notNull()
                t.column("serverCount", .integer).notNull()
            }
        }
        // Jump hosts (issue 15): a server's chain as written, NULL for a direct connection.
        migrator.registerMigration("v6-server-jump") { db in
            try db.alter(table: "server") { t in
                t.add(column: "jump", .text)
            }
        }
        // Saved tunnels (issue 15 §2): the server's forwards in their saved form (`L:5432:localhost:5432`), one per
        // line, NULL for none; `autostart`: the interface starts them when it starts.
        migrator.registerMigration("v7-server-forwards") { db in
            try db.alter(table: "server") { t in
                t.add(column: "forwards", .text)
                t.add(column: "autostart", .boolean).notNull().defaults(to: false)
            }
        }
        // Credentials (issue 17 §2): where the password comes from (`ask`, `vault`, `command:LINE`), a stable id
        // the vault keys its entries by (a random UUID per server, backfilled here, never changed), and the identity
        // that last logged in.
        migrator.registerMigration("v8-server-credentials") { db in
            try db.alter(table: "server") { t in
                t.add(column: "credential", .text).notNull().defaults(to: "ask")
                t.add(column: "uid", .text)
                t.add(column: "lastIdentity", .text)
            }
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM server") {
                try db.execute(sql: "UPDATE server SET uid = ? WHERE id = ?", arguments: [Server.newUID(), id])
            }
            try db.create(index: "server_uid", on: "server", columns: ["uid"], unique: true)
        }
        return migrator
    }
}
