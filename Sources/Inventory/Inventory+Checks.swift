import Foundation
import GRDB

/// Online check results, kept per server (the newest `checkResultsKept`).
extension Inventory {
    /// Stores results in one transaction and prunes each server's older ones.
    public func recordCheckResults(_ results: [CheckResult]) throws(InventoryError) {
        if results.isEmpty { return }
        try write { db in
            for var result in results { try result.insert(db) }
            try db.execute(sql: """
                DELETE FROM checkResult WHERE id IN (
                    SELECT id FROM (
                        SELECT id, ROW_NUMBER() OVER (PARTITION BY serverId ORDER BY checkedAt DESC, id DESC) AS rank
                        FROM checkResult)
                    WHERE rank > ?)
                """, arguments: [Self.checkResultsKept])
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
        return Dictionary(rows.map { ($0.serverId, $0) }, uniquingKeysWith: { a, b in a.checkedAt >= b.checkedAt ? a : b })
    }

    /// The stored results of one server, newest first.
    public func checkResults(serverNamed name: String) throws(InventoryError) -> [CheckResult] {
        let server = try server(named: name)
        return try read { db in
            try CheckResult.filter(Column("serverId") == server.id).order(Column("id").desc).fetchAll(db)
        }
    }
}
