import Basics
import Foundation
import Inventory

/// The team link as the Servers screen shows it (issue 18): what the App's team worker last learnt — when the
/// cache last synced, whether the team database answers, what waits to be pushed, what conflicts — and the checks
/// other members published. Plain values from Inventory: AppCore knows nothing of PostgreSQL.
package struct TeamStatus: Sendable, Equatable {
    /// Why the worker cannot sync now (nil: the last attempt worked).
    package enum Problem: Sendable, Equatable {
        /// The team database does not answer (the sentence says how it failed).
        case unreachable(String)
        /// It wants a password the worker has not got (libpq's sources and the unlocked vault have none).
        case needsPassword
        /// Anything else (no schema, a role without rights, the local cache): the sentence.
        case failed(String)
    }

    /// The PostgreSQL role this member logs in as (their own published checks are not shown as another's).
    package var member: String
    package var role: TeamRole
    /// The team revision the cache is at.
    package var revision: Int64
    /// The last sync that reached the team database (nil: never).
    package var lastSync: Date?
    package var problem: Problem?
    /// Edits queued to be pushed, and fields in conflict.
    package var queued: Int
    package var conflicts: Int
    /// The checks members published, by server uid.
    package var checks: [String: [TeamCheck]]

    package init(member: String, role: TeamRole, revision: Int64, lastSync: Date?, problem: Problem? = nil,
                 queued: Int = 0, conflicts: Int = 0, checks: [String: [TeamCheck]] = [:]) {
        self.member = member
        self.role = role
        self.revision = revision
        self.lastSync = lastSync
        self.problem = problem
        self.queued = queued
        self.conflicts = conflicts
        self.checks = checks
    }

    /// The team line: `team: synced 3 h ago · 2 queued · 1 conflict`, `team: synced 3 h ago, server unreachable`,
    /// `team: needs the database password — run essh team sync once`.
    /// `withReason: false` leaves out why a sync failed (the part a short line cuts first).
    package func line(now: Date, withReason: Bool = true) -> String {
        if problem == .needsPassword { return "team: needs the database password — run essh team sync once" }
        var text = "team: " + (lastSync.map { "synced " + Self.ago($0, now: now) } ?? "never synced")
        switch problem {
        case .unreachable: text += ", server unreachable"
        case .failed: text += ", sync failed"
        case .needsPassword, nil: break
        }
        if queued > 0 { text += " · \(queued) queued" }
        if conflicts > 0 { text += " · \(CountText.text(conflicts, "conflict"))" }
        switch problem {
        case .unreachable(let reason), .failed(let reason): if withReason { text += " — " + reason }
        case .needsPassword, nil: break
        }
        return text
    }

    /// The freshest check another member published of the server `uid`: `online (seen by ana, 2 min ago)`; nil
    /// when none did.
    package func seenBy(uid: String, now: Date) -> String? {
        let others = (checks[uid] ?? []).filter { $0.member != member }
        guard let freshest = others.max(by: { $0.checkedAt < $1.checkedAt }) else { return nil }
        let word = CheckStatus(rawValue: freshest.status)?.word ?? freshest.status
        return "\(word) (seen by \(freshest.member), \(Self.ago(freshest.checkedAt, now: now)))"
    }

    /// `just now`, `5 min ago`, `3 h ago`, `2 d ago`.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86_400 { return "\(seconds / 3600) h ago" }
        return "\(seconds / 86_400) d ago"
    }
}
