import Foundation
import Inventory

/// One synchronisation of the member's cache with the team database: the queued edits go up (conflicts are kept for
/// the editor, refusals are undone locally and reported), then everything changed since the cache's revision comes
/// down and is applied in one SQLite transaction, so an interrupted sync leaves the cache as it was before or after
/// it. Opted-in members then publish their newer check results.
public enum TeamSync {
    /// What a sync did.
    public struct Report: Sendable {
        public var pushed = 0
        public var conflicts: [TeamConflict] = []
        /// Refused edits: the server's name and why. Each was undone in the cache.
        public var refused: [(name: String, reason: TeamError)] = []
        public var applied = TeamApplySummary()
        public var published = 0
        public var revision: Int64 = 0
        public var role: TeamRole = .member
    }

    /// Runs one sync of `inventory` (linked to the team) with `database`.
    public static func run(_ database: TeamDatabase, inventory: Inventory, at now: Date = Date())
        throws(TeamError) -> Report {
        guard var link = try cache({ () throws(InventoryError) in try inventory.teamLink() }) else {
            throw TeamError(.notLinked, "This inventory is not linked to a team: run `essh team join URL` first.")
        }
        var report = Report()
        report.role = database.role
        if link.role != database.role {
            link.role = database.role
            try cache { () throws(InventoryError) in try inventory.saveTeamLink(link) }
        }
        do {
            try pushOutbox(database, inventory: inventory, into: &report)
            let changes = try database.pull(since: link.revision)
            report.applied = try cache { () throws(InventoryError) in
                try inventory.applyTeamChanges(changes, at: now)
            }
            report.revision = changes.revision
            if link.publishChecks {
                let checks = try publishable(inventory, member: database.connection.user)
                try database.publish(checks)
                report.published = checks.count
            }
            return report
        } catch {
            if error.isOffline {
                try? cache { () throws(InventoryError) in
                    try inventory.noteTeamSyncFailure(error.message, at: now)
                }
            }
            throw error
        }
    }

    /// Pushes the queued edits only (`essh team push`).
    public static func push(_ database: TeamDatabase, inventory: Inventory) throws(TeamError) -> Report {
        var report = Report()
        report.role = database.role
        try pushOutbox(database, inventory: inventory, into: &report)
        return report
    }

    private static func pushOutbox(_ database: TeamDatabase, inventory: Inventory, into report: inout Report)
        throws(TeamError) {
        let outbox = try cache { () throws(InventoryError) in try inventory.teamOutbox() }
        guard !outbox.isEmpty else { return }
        // Names for what the person reads: the edit's own (a rename), else the name the cache knows the server by.
        let known = Dictionary(((try? inventory.servers()) ?? []).map { ($0.uid, $0.name) },
                               uniquingKeysWith: { first, _ in first })
        let name = { (edit: TeamEdit) -> String in
            edit.mine[.name] ?? known[edit.uid] ?? (try? inventory.teamBase(uid: edit.uid))??.name ?? edit.uid
        }
        let outcome = try database.push(outbox, name: name)
        report.pushed = outcome.applied.count
        try cache { () throws(InventoryError) in
            try inventory.completeTeamEdits(ids: outcome.applied)
            for (id, conflicts) in outcome.conflicts.sorted(by: { $0.key < $1.key }) {
                try inventory.recordTeamConflicts(conflicts, replacing: [id])
            }
            if !outcome.refused.isEmpty {
                try inventory.revertTeamEdits(ids: Array(outcome.refused.keys))
            }
        }
        report.conflicts = outcome.conflicts.sorted(by: { $0.key < $1.key }).flatMap(\.value)
        report.refused = outcome.refused.sorted(by: { $0.key < $1.key }).map { id, reason in
            (outbox.first { $0.id == id }.map(name) ?? "", reason)
        }
    }

    /// This member's check results of shared servers newer than the ones the team already has from them (as the
    /// cache last pulled them), so a sync publishes each result once.
    static func publishable(_ inventory: Inventory, member: String) throws(TeamError) -> [TeamCheck] {
        let (servers, results, published) = try cache { () throws(InventoryError) in
            (try inventory.servers(), try inventory.lastCheckResults(), try inventory.teamChecksByServer())
        }
        return servers.compactMap { server -> TeamCheck? in
            guard server.isShared, (server.teamRevision ?? 0) > 0, let id = server.id, let result = results[id]
            else { return nil }
            let mine = published[server.uid]?.first { $0.member == member }
            // PostgreSQL keeps microseconds: a result read back may be a hair older than the one published.
            if let mine, mine.checkedAt.timeIntervalSince(result.checkedAt) > -0.001 { return nil }
            return TeamCheck(serverUid: server.uid, member: member, status: result.status.rawValue,
                             latencyMs: result.latencyMs, checkedAt: result.checkedAt)
        }
    }

    /// Runs a cache operation, turning its error into a team one.
    static func cache<T>(_ body: () throws(InventoryError) -> T) throws(TeamError) -> T {
        do { return try body() } catch { throw TeamError(.cache, error.message) }
    }
}
