import Foundation
import GRDB
import Synchronization
import Inventory
import Testing
import TestSupport

/// The database file on disk: migrations, permissions, and files eSSH must refuse without touching them.
@Suite struct InventoryFileTests {
    private func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    private func refusal(_ path: String, busyTimeout: TimeInterval = 5) -> InventoryError? {
        do {
            _ = try Inventory(path: path, busyTimeout: busyTimeout)
            return nil
        } catch {
            return error
        }
    }

    private func schema(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        }
    }

    @Test func aNewFileIsMigratedToEveryVersionInAPrivateFolder() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("deep/er/essh.db")
        let inventory = try Inventory(path: path)
        try withExtendedLifetime(inventory) {
            #expect(try inventory.appliedMigrations() == Inventory.migrationIdentifiers)
            try inventory.addServer(ServerDraft(name: "a", host: "h"))
            #expect(mode(dir.file("deep/er")) == 0o700)
            #expect(mode(dir.file("deep")) == 0o700)
            #expect(mode(path) == 0o600)
            // While the database is open in WAL mode its companions exist, private too.
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(mode(path + "-wal") == 0o600)
            #expect(mode(path + "-shm") == 0o600)
            let journal = try DatabaseQueue(path: path).read { db in
                try String.fetchOne(db, sql: "PRAGMA journal_mode")
            }
            #expect(journal == "wal")
        }
    }

    @Test func anEmptyExistingFileIsMigrated() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        FileManager.default.createFile(atPath: dir.file("e.db"), contents: Data(),
                                       attributes: [.posixPermissions: 0o600])
        #expect(try Inventory(path: dir.file("e.db")).appliedMigrations() == Inventory.migrationIdentifiers)
    }

    @Test func everyEarlierVersionIsMigratedKeepingItsDataAndEndsWithTheFreshSchema() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let fresh = dir.file("fresh.db")
        _ = try Inventory(path: fresh)
        let ids = Inventory.migrationIdentifiers
        #expect(ids.count >= 2)
        for (i, id) in ids.dropLast().enumerated() {
            let path = dir.file("v\(i).db")
            try Inventory.createDatabase(path: path, upToMigration: id)
            // Every version has had the server table: data written then must survive the upgrade.
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO server (name, host, port, user, auth, keyPath, os, tags, note, createdAt, updatedAt)
                    VALUES ('old', 'old.lan', 2200, 'me', 'agent', NULL, 'linux', 't,u', 'n',
                            '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                    """)
            }
            try queue.close()
            let inventory = try Inventory(path: path)
            #expect(try inventory.appliedMigrations() == ids, "from \(id)")
            let old = try inventory.server(named: "old")
            #expect(old.host == "old.lan" && old.port == 2200 && old.tags == ["t", "u"] && old.os == .linux)
            #expect(try schema(path) == (try schema(fresh)), "schema after upgrading from \(id)")
        }
    }

    @Test func aFileWrittenByANewerEsshIsRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("newer.db")
        try Inventory(path: path).addServer(ServerDraft(name: "a", host: "h"))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')")
            try db.execute(sql: "CREATE TABLE future (x)")
        }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = refusal(path)
        #expect(error?.kind == .newerDatabase)
        #expect(error?.message.contains("newer eSSH") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFileMarkedWithAUserVersionIsRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("marked.db")
        try Inventory(path: path).addServer(ServerDraft(name: "a", host: "h"))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "PRAGMA user_version = 999") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = refusal(path)
        #expect(error?.kind == .newerDatabase)
        #expect(error?.message.contains("user_version 999") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Many first uses at once: each builds a whole database under a temporary name; one is linked into place and
    /// everyone opens that one. Nobody sees a half-made file (it used to be called "another program's").
    @Test func manyFirstOpensAtOnceAllSucceedOnOneDatabase() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("new/essh.db")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            do {
                try Inventory(path: path, busyTimeout: 30).addServer(ServerDraft(name: "s\(i)", host: "h\(i)"))
            } catch {
                failures.withLock { $0.append("\(i): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try Inventory(path: path).servers().count == 40)
        #expect(mode(path) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.file("new"))
            .filter { $0.hasPrefix(".essh-new-") }
        #expect(leftovers == [], "temporary files are removed")
    }

    @Test func aCorruptFileIsRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let headed = Data("SQLite format 3\0".utf8) + garbage
        for (name, bytes) in [("garbage.db", garbage), ("headed.db", headed)] {
            let path = dir.file(name)
            try bytes.write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
            let error = refusal(path)
            #expect(error?.kind == .corrupt, "\(name): \(String(describing: error))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func aDamagedPageIsRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("damaged.db")
        do {
            let inventory = try Inventory(path: path)
            for i in 0..<200 { try inventory.addServer(ServerDraft(name: "s\(i)", host: "host-\(i).example")) }
        }
        let queue = try DatabaseQueue(path: path)
        let (root, pageSize) = try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            return (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'server'") ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        try queue.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Overwrite the page header and cell pointers of the server table's root page with junk.
        let start = (root - 1) * pageSize
        #expect(root > 1 && start + 64 <= bytes.count)
        for i in start..<(start + 64) { bytes[i] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let error = refusal(path)
        #expect(error?.kind == .corrupt, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aReadOnlyFileIsRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("ro.db")
        try Inventory(path: path).addServer(ServerDraft(name: "a", host: "h"))
        chmod(path, 0o400)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = refusal(path)
        #expect(error?.kind == .readOnly)
        #expect(error?.message.contains("chmod u+w") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(mode(path) == 0o400)
    }

    @Test func anotherProgramsSQLiteFileIsRefusedAndLeftByteIdentical() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("other.db")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)") }
        try queue.close()
        chmod(path, 0o600)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(refusal(path)?.kind == .notEsshDatabase)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aLockedFileGivesUpWithALockedErrorAndLosesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("locked.db")
        try Inventory(path: path).addServer(ServerDraft(name: "a", host: "h"))
        let holder = try DatabaseQueue(path: path)
        let inventory = try Inventory(path: path, busyTimeout: 0.2)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            var caught: InventoryError?
            do {
                try inventory.addServer(ServerDraft(name: "b", host: "h"))
            } catch let error as InventoryError {
                caught = error
            }
            #expect(caught?.kind == .locked)
            #expect(caught?.message.contains("locked") == true)
            try db.execute(sql: "ROLLBACK")
        }
        // Reading while locked still works with WAL, and the first server is intact.
        #expect(try inventory.servers().map(\.name) == ["a"])
        try inventory.addServer(ServerDraft(name: "b", host: "h"))
        #expect(try inventory.serverCount() == 2)
    }

    @Test func reopeningKeepsEverything() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("keep.db")
        do {
            let inventory = try Inventory(path: path)
            let id = try inventory.addServer(ServerDraft(name: "a", host: "h")).id!
            try inventory.recordCheckResults([CheckResult(serverId: id, status: .online, latencyMs: 1.5,
                                                          banner: "SSH-2.0-x", error: nil, checkedAt: Date())])
            try inventory.setSetting("k", to: "v")
        }
        let again = try Inventory(path: path)
        #expect(try again.lastCheckResults().values.first?.banner == "SSH-2.0-x")
        #expect(try again.setting("k") == "v")
    }
}
