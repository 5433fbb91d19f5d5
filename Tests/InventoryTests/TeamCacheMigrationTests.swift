import Foundation
import GRDB
@testable import Inventory
import Testing
import TestSupport

/// The v9 migration adds the team cache to a database that has servers already: they stay personal.
@Suite struct TeamCacheMigrationTests {
    @Test func serversSavedBeforeStayPersonalAndTheFileSyncsAfterReopening() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("old.db")
        do {
            let queue = try DatabaseQueue(path: path)
            try InventoryMigrations.migrator.migrate(queue, upTo: "v8-server-credentials")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO server (name, host, port, auth, os, tags, note, createdAt, updatedAt, uid)
                    VALUES ('old', 'h', 22, 'agent', 'auto', '', '', '2026-01-01 00:00:00', '2026-01-01 00:00:00',
                            'u-old')
                    """)
            }
        }
        let inventory = try Inventory(path: path)
        #expect(try inventory.appliedMigrations().last == "v9-team")
        let old = try inventory.server(named: "old")
        #expect(old.teamRevision == nil && !old.isShared)
        #expect(try inventory.teamLink() == nil)
        try inventory.saveTeamLink(TeamLink(url: "postgres://db/essh", member: "ana", role: .member,
                                            joinedAt: TeamFixture.joined))
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, name: "old")], revision: 1))
        let reopened = try Inventory(path: path)
        #expect(try reopened.server(named: "old~team").teamRevision == 1)
        #expect(try reopened.teamLink()?.revision == 1)
        #expect(try reopened.teamSnapshot() == inventory.teamSnapshot())
    }

    @Test func tenThousandServersApplyToAFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Inventory(path: dir.file("essh.db"))
        try inventory.saveTeamLink(TeamLink(url: "postgres://db/essh", member: "ana", role: .member,
                                            joinedAt: TeamFixture.joined))
        let servers = (1...10_000).map { TeamFixture.shared($0, revision: Int64($0)) }
        let started = Date()
        #expect(try inventory.applyTeamChanges(TeamChanges(servers: servers, revision: 10_000)).added.count == 10_000)
        let elapsed = Date().timeIntervalSince(started)
        #expect(try inventory.serverCount() == 10_000)
        print("team apply to a file: 10,000 servers \(Int(elapsed * 1000)) ms")
    }
}
