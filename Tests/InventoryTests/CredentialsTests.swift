import Foundation
import GRDB
@testable import Inventory
import Testing
import TestSupport

/// Per-server credential sources, stable ids and the identity that last logged in (issue 17 §2).
@Suite struct CredentialsTests {
    @Test func theMigrationGivesServersSavedBeforeAskAndTheirOwnStableIDs() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("old.db")
        do {
            let queue = try DatabaseQueue(path: path)
            try InventoryMigrations.migrator.migrate(queue, upTo: "v7-server-forwards")
            try queue.write { db in
                for name in ["a", "b"] {
                    try db.execute(sql: """
                        INSERT INTO server (name, host, port, auth, os, tags, note, createdAt, updatedAt)
                        VALUES (?, 'h', 22, 'agent', 'auto', '', '', '2026-01-01 00:00:00', '2026-01-01 00:00:00')
                        """, arguments: [name])
                }
            }
        }
        let inventory = try Inventory(path: path)
        let a = try inventory.server(named: "a"), b = try inventory.server(named: "b")
        #expect(a.credential == .ask && b.credential == .ask)
        #expect(a.lastIdentity == nil)
        #expect(UUID(uuidString: a.uid) != nil && UUID(uuidString: b.uid) != nil && a.uid != b.uid)
        #expect(try inventory.appliedMigrations().contains("v8-server-credentials"))
    }

    @Test func aSavedServerGetsAStableIDThatEditsAndRenamesKeep() throws {
        let inventory = try Inventory()
        let saved = try inventory.addServer(ServerDraft(name: "db1", host: "h", credential: .command("pass show db1")))
        #expect(UUID(uuidString: saved.uid) != nil)
        #expect(try inventory.server(named: "db1").credential == .command("pass show db1"))
        let edited = try inventory.updateServer(named: "db1", ServerChanges(name: "db2", credential: .vault))
        #expect(edited.uid == saved.uid && edited.credential == .vault)
        #expect(try inventory.server(named: "db2").uid == saved.uid)
        let other = try inventory.addServer(ServerDraft(name: "db3", host: "h"))
        #expect(other.uid != saved.uid && other.credential == .ask)
    }

    @Test func recordingTheIdentityLeavesUpdatedAtAlone() throws {
        let inventory = try Inventory()
        let saved = try inventory.addServer(ServerDraft(name: "k", host: "h"), at: Date(timeIntervalSince1970: 1000))
        try inventory.recordIdentity(serverID: try #require(saved.id), "agent:SHA256:abc")
        let after = try inventory.server(named: "k")
        #expect(after.lastIdentity == "agent:SHA256:abc")
        #expect(after.updatedAt == saved.updatedAt)
        #expect(throws: InventoryError.self) { try inventory.recordIdentity(serverID: 999, "x") }
    }

    @Test func restoreKeepsASavedServersStableIDAndNeverSharesOne() throws {
        let inventory = try Inventory()
        let saved = try inventory.addServer(ServerDraft(name: "a", host: "h"))
        var incoming = saved
        incoming.uid = "11111111-1111-1111-1111-111111111111"
        incoming.credential = .vault
        var copy = saved
        copy.name = "b"
        copy.id = nil
        try inventory.restoreServers([incoming, copy])
        let a = try inventory.server(named: "a"), b = try inventory.server(named: "b")
        #expect(a.uid == saved.uid && a.credential == .vault)
        #expect(!b.uid.isEmpty && b.uid != saved.uid)
    }

    @Test func sourcesAreReadAndWrittenInOneSpelling() {
        #expect(CredentialSource.parse("ask") == .success(.ask))
        #expect(CredentialSource.parse("") == .success(.ask))
        #expect(CredentialSource.parse("Vault") == .success(.vault))
        #expect(CredentialSource.parse("command: pass show db1 ") == .success(.command("pass show db1")))
        #expect(CredentialSource.command("pass show db1").text == "command:pass show db1")
        #expect(CredentialSource(stored: "command:/bin/cat f") == .command("/bin/cat f"))
        #expect(CredentialSource(stored: "gibberish") == .ask)
        for bad in ["keyring", "command:", "command:  ", "command:pass\u{1B}x"] {
            guard case .failure(let problem) = CredentialSource.parse(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(!problem.message.isEmpty)
        }
    }

    @Test func aCommandIsSplitAsSSHConfigSplitsArguments() {
        #expect(CredentialSource.words("pass show servers/db1") == ["pass", "show", "servers/db1"])
        #expect(CredentialSource.words("secret-tool lookup 'my host' \"a b\" c\\ d") ==
                ["secret-tool", "lookup", "my host", "a b", "c d"])
        #expect(CredentialSource.words("  ").isEmpty)
    }

    @Test func aDraftWithAnEmptyCommandIsRefusedOnTheCredentialField() throws {
        #expect(ServerDraft(name: "a", host: "h", credential: .command(" ")).problems.map(\.field) == [.credential])
        let inventory = try Inventory()
        #expect(throws: InventoryError.self) {
            try inventory.addServer(ServerDraft(name: "a", host: "h", credential: .command("")))
        }
    }
}
