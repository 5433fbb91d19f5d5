import Basics
import Foundation
import GRDB
import Inventory
import Testing
import TestSupport

/// `CheckStatus` and `ServerOS` as stored columns: the words on disk, rows an older eSSH wrote, and words this
/// version does not know. Each test uses a real database file.
@Suite struct StoredEnumTests {
    /// The words eSSH has always written, spelled out here so a renamed raw value fails these tests.
    static let statusWords: [String: CheckStatus] = [
        "online": .online, "not-ssh": .notSSH, "refused": .refused, "timeout": .timeout,
        "unreachable": .unreachable, "dns-error": .dnsError,
    ]
    static let osWords: [String: ServerOS] = [
        "auto": .auto, "linux": .linux, "macos": .macos, "bsd": .bsd, "windows": .windows,
    ]

    private func column(_ path: String, _ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: sql) }
    }

    /// Inserts a server (and optionally a check result) as an older eSSH did: plain SQL with literal words.
    private func insertOldRow(_ db: Database, name: String, os: String,
                              status: (any DatabaseValueConvertible)?) throws {
        try db.execute(sql: """
            INSERT INTO server (name, host, port, user, auth, keyPath, os, tags, note, createdAt, updatedAt)
            VALUES (?, 'h.lan', 22, NULL, 'agent', NULL, ?, '', '', '2026-01-01 00:00:00.000',
                    '2026-01-01 00:00:00.000')
            """, arguments: [name, os])
        guard let status else { return }
        try db.execute(sql: """
            INSERT INTO checkResult (serverId, status, latencyMs, banner, error, checkedAt)
            VALUES (?, ?, NULL, NULL, 'as written', '2026-01-02 00:00:00.000')
            """, arguments: [db.lastInsertedRowID, status.databaseValue])
    }

    @Test func everyStatusAndOSIsStoredAsItsWordAndReadsBackFromTheFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("essh.db")
        let systems = ServerOS.allCases
        do {
            let inventory = try Inventory(path: path)
            var results: [CheckResult] = []
            for (n, status) in CheckStatus.allCases.enumerated() {
                let draft = ServerDraft(name: "s\(n)", host: "h", os: systems[n % systems.count])
                let server = try inventory.addServer(draft)
                results.append(CheckResult(serverId: server.id!, status: status, latencyMs: nil, banner: nil,
                                           error: nil, checkedAt: Date(timeIntervalSince1970: 1_000)))
            }
            try inventory.recordCheckResults(results)
        }
        // The words on disk are the ones eSSH always wrote.
        #expect(Set(try column(path, "SELECT status FROM checkResult")) == Set(Self.statusWords.keys))
        #expect(Set(try column(path, "SELECT os FROM server")) == Set(Self.osWords.keys))

        let reopened = try Inventory(path: path)
        let servers = try reopened.servers()
        let last = try reopened.lastCheckResults()
        for (n, status) in CheckStatus.allCases.enumerated() {
            let server = try #require(servers.first { $0.name == "s\(n)" })
            #expect(server.os == systems[n % systems.count])
            #expect(last[server.id!]?.status == status)
        }
        // The enum is a database value: requests can filter by it.
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let notSSH = try queue.read { db in
            try CheckResult.filter(Column("status") == CheckStatus.notSSH).fetchAll(db)
        }
        #expect(notSSH.map(\.status) == [.notSSH])
    }

    @Test func rowsAnOlderEsshWroteReadUnchanged() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("old.db")
        // The first schema eSSH shipped, filled the way it filled it.
        try Inventory.createDatabase(path: path, upToMigration: Inventory.migrationIdentifiers[0])
        let queue = try DatabaseQueue(path: path)
        let words = Array(Self.statusWords.keys).sorted()
        let systems = Array(Self.osWords.keys).sorted()
        try queue.write { db in
            for (n, word) in words.enumerated() {
                try insertOldRow(db, name: "s-\(word)", os: systems[n % systems.count], status: word)
            }
        }
        try queue.close()

        let inventory = try Inventory(path: path)
        let servers = try inventory.servers()
        let last = try inventory.lastCheckResults()
        #expect(servers.count == words.count && last.count == words.count)
        for (n, word) in words.enumerated() {
            let server = try #require(servers.first { $0.name == "s-\(word)" })
            #expect(server.os == Self.osWords[systems[n % systems.count]])
            #expect(last[server.id!]?.status == Self.statusWords[word], "\(word)")
        }
    }

    @Test func aWordThisVersionDoesNotKnowReadsAsTheDocumentedFallbackAndStaysOnDisk() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let path = dir.file("newer-words.db")
        _ = try Inventory(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            // A newer eSSH's status and OS, and a value that is not text at all (bytes that are not UTF-8).
            try insertOldRow(db, name: "filtered", os: "plan9", status: "filtered")
            try insertOldRow(db, name: "bytes", os: "linux", status: Data([0xFF, 0xFE]))
            try insertOldRow(db, name: "plain", os: "bsd", status: nil)
        }
        try queue.close()

        let inventory = try Inventory(path: path)
        let servers = try inventory.servers()
        #expect(servers.map(\.name).sorted() == ["bytes", "filtered", "plain"], "no row is lost")
        let byName = Dictionary(uniqueKeysWithValues: servers.map { ($0.name, $0) })
        #expect(byName["filtered"]?.os == .auto, "an unknown system is detected again")
        #expect(byName["bytes"]?.os == .linux && byName["plain"]?.os == .bsd)

        let last = try inventory.lastCheckResults()
        #expect(CheckStatus.unknownStoredWord == .unreachable)
        #expect(last[byName["filtered"]!.id!]?.status == .unreachable)
        #expect(last[byName["filtered"]!.id!]?.error == "as written", "the rest of the row is read as it is")
        #expect(last[byName["bytes"]!.id!]?.status == .unreachable)
        #expect(last[byName["plain"]!.id!] == nil)
        #expect(try inventory.checkResults(serverNamed: "filtered").count == 1)

        // Reading changed nothing: the newer eSSH still finds its own word.
        #expect(try column(path, "SELECT typeof(status) || ':' || hex(status) FROM checkResult ORDER BY id")
                == ["text:" + "filtered".utf8.map { String(format: "%02X", $0) }.joined(), "blob:FFFE"])
        #expect(try column(path, "SELECT os FROM server WHERE name = 'filtered'") == ["plan9"])
    }

    @Test func aMissingValueIsNilNotAFallback() {
        #expect(CheckStatus.fromDatabaseValue(.null) == nil)
        #expect(ServerOS.fromDatabaseValue(.null) == nil)
        #expect(CheckStatus.fromDatabaseValue("dns-error".databaseValue) == .dnsError)
        #expect(ServerOS.fromDatabaseValue("windows".databaseValue) == .windows)
    }
}
