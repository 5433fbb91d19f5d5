import Foundation
import GRDB

/// eSSH's database: servers, their check results, the command history and settings. One instance per file; safe to
/// share between threads (reads run concurrently, writes one at a time, also across processes through SQLite).
public final class Inventory: Sendable {
    /// The database file (":memory:" for an in-memory database).
    public let path: String
    let writer: any DatabaseWriter

    /// Check results kept per server; older ones are pruned when new ones are recorded.
    static let checkResultsKept = 20

    /// Opens (creating and migrating as needed) the database at `path`. Refuses, without writing to it, a file
    /// that is not an eSSH database, is damaged, read-only, or was written by a newer eSSH; a locked file gives up
    /// after `busyTimeout` seconds (15 by default: writes hold the lock for milliseconds, but a hundred eSSH processes
    /// writing at once on a busy machine queued past 5 s, and a wait is better than a refused command).
    public init(path: String, busyTimeout: TimeInterval = 15) throws(InventoryError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "essh"
        var state = try DatabaseFile.prepare(path: path)
        if state == .missing {
            try DatabaseFile.createAtomically(path: path) { temporary in
                let pool = try DatabasePool(path: temporary, configuration: configuration)
                try InventoryMigrations.migrator.migrate(pool)
                try pool.close()
            }
            state = .existing
        }
        // Two processes creating the same file at once: switching a new file to WAL can answer SQLITE_BUSY without
        // going through the busy handler, so opening is retried until the busy timeout.
        let deadline = Date().addingTimeInterval(busyTimeout)
        var opened: DatabasePool?
        while opened == nil {
            do {
                if state == .existing { try Self.inspect(path: path, configuration: configuration) }
                let pool = try DatabasePool(path: path, configuration: configuration)
                try Self.migrate(pool, path: path)
                opened = pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(20_000)
            } catch {
                throw InventoryError.wrap(error, path: path)
            }
        }
        writer = opened!
        DatabaseFile.tightenCompanions(path: path)
    }

    /// Whether a database file is at `path`, creating nothing: commands that only read open one only if it exists.
    /// Throws (as opening would) when a folder on the way is a file, or the path cannot be looked at.
    public static func fileExists(at path: String) throws(InventoryError) -> Bool {
        try DatabaseFile.exists(path: path)
    }

    /// A fresh in-memory database, for tests and previews.
    public init(inMemory: Void = ()) throws(InventoryError) {
        path = ":memory:"
        do {
            let queue = try DatabaseQueue()
            writer = queue
            try InventoryMigrations.migrator.migrate(queue)
        } catch {
            throw InventoryError.wrap(error, path: ":memory:")
        }
    }

    /// The identifiers of every migration this eSSH knows, oldest first.
    public static var migrationIdentifiers: [String] { InventoryMigrations.migrator.migrations }

    /// The migrations applied to this database, oldest first.
    public func appliedMigrations() throws(InventoryError) -> [String] {
        try read { db in try InventoryMigrations.migrator.appliedMigrations(db) }
    }

    /// Brings the database at `path` up to migration `identifier` only: tests use it to build every earlier version.
    public static func createDatabase(path: String, upToMigration identifier: String) throws(InventoryError) {
        guard try DatabaseFile.prepare(path: path) == .missing else {
            throw InventoryError(.io, "exists", "\(path) exists already; give a new path.")
        }
        try DatabaseFile.createAtomically(path: path) { temporary in
            let pool = try DatabasePool(path: temporary)
            try InventoryMigrations.migrator.migrate(pool, upTo: identifier)
            try pool.close()
        }
    }

    /// Reads what a file holds without writing to it, and refuses files eSSH must not migrate.
    private static func inspect(path: String, configuration: Configuration) throws {
        var readOnly = configuration
        readOnly.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: readOnly)
        try queue.read { db in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? ""
            if check != "ok" { throw InventoryError.corrupt(path: path, detail: "quick_check: \(check)") }
            // Another eSSH creating this file right now may have written GRDB's bookkeeping table but not yet its
            // first migration (which stamps the application id): that file is ours, not another program's. One
            // statement reads both, so they come from the same snapshot.
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT application_id FROM pragma_application_id()) AS appID,
                       (SELECT count(*) FROM sqlite_master WHERE name != 'grdb_migrations') AS tableCount
                """)
            let appID: Int32 = row?["appID"] ?? 0
            let tableCount: Int = row?["tableCount"] ?? 0
            if appID != InventoryMigrations.applicationID && (appID != 0 || tableCount > 0) {
                throw InventoryError(.notEsshDatabase, "application_id \(appID)", """
                    \(path) is an SQLite database of another program, not eSSH's; eSSH left it untouched. \
                    Use --db to pick another file.
                    """)
            }
            // eSSH never sets user_version; another SQLite tool (or another lineage of eSSH) marking the file so
            // says it is theirs, or newer: refuse it as a newer migration is refused.
            let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if userVersion != 0 {
                throw InventoryError(.newerDatabase, "user_version \(userVersion)", """
                    The database \(path) is marked with user_version \(userVersion), which this eSSH never writes: \
                    another program or a newer eSSH uses it. eSSH left it untouched; use --db to pick another file.
                    """)
            }
            if try InventoryMigrations.migrator.hasBeenSuperseded(db) {
                let known = Set(InventoryMigrations.migrator.migrations)
                let unknown = try InventoryMigrations.migrator.appliedIdentifiers(db).subtracting(known).sorted()
                throw InventoryError(.newerDatabase, "unknown migrations: \(unknown.joined(separator: ", "))", """
                    The database \(path) was written by a newer eSSH; this one cannot use it and left it untouched. \
                    Upgrade eSSH, or use --db to pick another file.
                    """)
            }
        }
        try queue.close()
    }

    /// Applies missing migrations. Only writes when one is missing, so opening a locked, up-to-date file to read
    /// it does not wait. Two processes creating the same new file at once race here; the loser finds the work done.
    private static func migrate(_ pool: DatabasePool, path: String) throws {
        let migrator = InventoryMigrations.migrator
        let pending = { () throws -> Bool in
            try pool.read { db in try migrator.completedMigrations(db) != migrator.migrations }
        }
        guard try pending() else { return }
        do {
            try migrator.migrate(pool)
        } catch {
            if try pending() { throw error }
        }
    }

    /// SQLite's `PRAGMA data_version` on the one writing connection: it changes when another connection — another
    /// eSSH process, `essh servers add` while the interface runs — commits, and not for this instance's own writes.
    /// Cheap (no table is read), so a front end can poll it to notice changes made elsewhere.
    public func dataVersion() throws(InventoryError) -> Int {
        do {
            return try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw InventoryError.wrap(error, path: path)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(InventoryError) -> T {
        do {
            return try writer.read(body)
        } catch {
            throw InventoryError.wrap(error, path: path)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(InventoryError) -> T {
        do {
            return try writer.write(body)
        } catch {
            throw InventoryError.wrap(error, path: path)
        }
    }
}
