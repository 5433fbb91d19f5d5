import Foundation
import GRDB

/// Online check results, kept per server (the newest `checkResultsKept`).
extension Inventory {
    /// Stores results in one transaction and prunes the older results of the servers concerned (each prune walks
    /// the serverId index, so recording 10,000 results stays cheap however long the table has grown).
    public func recordCheckResults(_ results: [CheckResult]) throws(InventoryError) {
        if results.isEmpty { return }
        try write { db in
            for var result in results {
                result.checkedAt = result.checkedAt.databasePrecision
                try result.insert(db)
            }
            let prune = try db.cachedStatement(sql: """
                DELETE FROM checkResult WHERE serverId = ?1 AND id <= (
                    SELECT id FROM checkResult WHERE serverId = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
                """)
            for serverId in Set(results.map(\.serverId)) {
                try prune.execute(arguments: [serverId, Self.checkResultsKept])
            }
        }
    }

    /// The newest result of every server that has one, by server row id: what the TUI shows at startup.
    public func lastCheckResults() throws(InventoryError) -> [Int64: CheckResult] {
        let rows = try read { db in
            try CheckResult.fetchAll(db, sql: """
                SELECT c.* FROM checkResult c
                JOIN (SELECT serverId, MAX(id) AS id FROM checkResult GROUP BY serverId) newest ON c.id = newest.id
                """)
        }
        return Dictionary(rows.map { ($0.serverId, $0) },
                          uniquingKeysWith: { a, b in a.checkedAt >= b.checkedAt ? a : b })
    }

    /// The stored results of one server, newest first.
    public func checkResults(serverNamed name: String) throws(InventoryError) -> [CheckResult] {
        let server = try server(named: name)
        return try read { db in
            try CheckResult.filter(CheckResult.Columns.serverId == server.id).order(CheckResult.Columns.id.desc).fetchAll(db)
        }
    }
}
