import Foundation
import GRDB
@testable import Inventory
import Testing
import TestSupport

/// The v7 migration adds saved tunnels to a database that has servers already.
@Suite struct ForwardsMigrationTests {
    @Test func theMigrationAddsTunnelsToServersSavedBefore() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("old.db")
        do {
            let queue = try DatabaseQueue(path: path)
            let migrator = InventoryMigrations.migrator
            try migrator.migrate(queue, upTo: "v6-server-jump")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO server (name, host, port, auth, os, tags, note, createdAt, updatedAt)
                    VALUES ('old', 'h', 22, 'agent', 'auto', '', '', '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                    """)
            }
        }
        let inventory = try Inventory(path: path)
        let old = try inventory.server(named: "old")
        #expect(old.forwards.isEmpty && !old.autostart)
        #expect(try inventory.appliedMigrations().contains("v7-server-forwards"))
    }
}
