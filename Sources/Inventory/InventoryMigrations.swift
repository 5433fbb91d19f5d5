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
        // A team's shared inventory (issue 18): the member's local cache of it. `server.teamRevision`: NULL for a
        // personal server, 0 for a shared one added here and not yet pushed, else the team revision of its base.
        // team_link: the one link to a team database; team_base: each shared server as the team had it when last
        // synced (tombstones kept, deleted = 1); team_outbox: an editor's edits waiting to be pushed (one per
        // server, base and mine as JSON objects of SharedField raw values); team_conflict: fields two editors
        // changed differently, waiting for a choice; team_pin and team_check: the team's host-key pins and
        // published check results.
        migrator.registerMigration("v9-team") { db in
            try db.alter(table: "server") { t in
                t.add(column: "teamRevision", .integer)
            }
            try db.create(table: "team_link") { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.column("url", .text).notNull()
                t.column("member", .text).notNull()
                t.column("role", .text).notNull()
                t.column("revision", .integer).notNull().defaults(to: 0)
                t.column("joinedAt", .datetime).notNull()
                t.column("lastSync", .datetime)
                t.column("lastAttempt", .datetime)
                t.column("lastError", .text)
                t.column("publishChecks", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "team_base") { t in
                t.primaryKey("uid", .text)
                t.column("name", .text).notNull()
                t.column("host", .text).notNull()
                t.column("port", .integer).notNull()
                t.column("user", .text)
                t.column("jump", .text).notNull().defaults(to: "")
                t.column("tags", .text).notNull().defaults(to: "")  // comma-separated
                t.column("os", .text).notNull().defaults(to: "auto")
                t.column("revision", .integer).notNull()
                t.column("deleted", .boolean).notNull().defaults(to: false)
                t.column("changedBy", .text).notNull().defaults(to: "")
                t.column("changedAt", .datetime).notNull()
            }
            try db.create(table: "team_outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("uid", .text).notNull().unique()
                t.column("kind", .text).notNull()
                t.column("baseRevision", .integer).notNull()
                t.column("base", .text).notNull()
                t.column("mine", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "team_conflict") { t in
                t.column("uid", .text).notNull()
                t.column("field", .text).notNull()
                t.column("name", .text).notNull()
                t.column("base", .text).notNull()
                t.column("mine", .text).notNull()
                t.column("theirs", .text).notNull()
                t.column("theirsDeleted", .boolean).notNull()
                t.column("theirsBy", .text).notNull()
                t.column("theirsRevision", .integer).notNull()
                t.primaryKey(["uid", "field"])
            }
            try db.create(table: "team_pin") { t in
                t.column("host", .text).notNull()
                t.column("port", .integer).notNull()
                t.column("keyType", .text).notNull()
                t.column("key", .text).notNull()
                t.column("fingerprint", .text).notNull()
                t.column("pinnedBy", .text).notNull()
                t.column("pinnedAt", .datetime).notNull()
                t.column("revision", .integer).notNull()
                t.primaryKey(["host", "port", "keyType"])
            }
            try db.create(table: "team_check") { t in
                t.column("serverUid", .text).notNull()
                t.column("member", .text).notNull()
                t.column("status", .text).notNull()
                t.column("latencyMs", .double)
                t.column("checkedAt", .datetime).notNull()
                t.primaryKey(["serverUid", "member"])
            }
        }
        return migrator
    }
}
