import Basics
import Foundation
import GRDB

/// An editor's edits to the team's servers (the outbox, pushed by the Team module) and the conflicts a push found.
extension Inventory {
    /// The edits waiting to be pushed, oldest first (at most one per server: later edits merge into it).
    public func teamOutbox() throws(InventoryError) -> [TeamEdit] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM team_outbox ORDER BY id").map(TeamOutbox.edit) }
    }

    /// Removes pushed edits from the outbox. The team's rows they made come back with the next pull; until then
    /// the cache's base holds their values, so a later edit of the same field starts from the pushed value.
    public func completeTeamEdits(ids: [Int64]) throws(InventoryError) {
        try write { db in
            for id in ids {
                guard let edit = try TeamOutbox.edit(id: id, db) else { continue }
                switch edit.kind {
                case .delete:
                    try db.execute(sql: "UPDATE team_base SET deleted = 1 WHERE uid = ?", arguments: [edit.uid])
                case .update:
                    if var base = try TeamStore.base(uid: edit.uid, db) {
                        for (field, value) in edit.mine { base.set(field, value) }
                        try TeamApply.upsertBase(base, db)
                    }
                case .create:
                    if let server = try TeamStore.server(uid: edit.uid, db) {
                        var base = SharedServer(uid: edit.uid, name: "", host: "", port: 22, user: nil, jump: "",
                                                tags: [], os: "auto", revision: 0, changedAt: edit.createdAt)
                        for field in SharedField.allCases { base.set(field, edit.mine[field] ?? server.sharedValue(field)) }
                        try TeamApply.upsertBase(base, db)
                    }
                }
                try db.execute(sql: "DELETE FROM team_outbox WHERE id = ?", arguments: [id])
            }
        }
    }

    /// Removes edits from the outbox without touching the servers (the local rows keep the edited values).
    public func dropTeamEdits(ids: [Int64]) throws(InventoryError) {
        try write { db in
            for id in ids { try db.execute(sql: "DELETE FROM team_outbox WHERE id = ?", arguments: [id]) }
        }
    }

    /// Removes edits the team database refused and puts the local rows back as the team has them: an update's
    /// fields go back to the base, a removed server comes back (with personal defaults), and a server added here
    /// stays as a personal one (nothing typed is lost).
    public func revertTeamEdits(ids: [Int64]) throws(InventoryError) {
        try write { db in
            for id in ids {
                guard let edit = try TeamOutbox.edit(id: id, db) else { continue }
                try db.execute(sql: "DELETE FROM team_outbox WHERE id = ?", arguments: [id])
                switch edit.kind {
                case .create:
                    try db.execute(sql: "UPDATE server SET teamRevision = NULL WHERE uid = ?", arguments: [edit.uid])
                case .update:
                    guard var server = try TeamStore.server(uid: edit.uid, db),
                          let base = try TeamStore.base(uid: edit.uid, db) else { continue }
                    for field in edit.mine.keys { server.setShared(field, base.value(field)) }
                    if edit.mine[.name] != nil { server.name = try TeamStore.freeName(base.name, uid: edit.uid, db) }
                    try server.update(db)
                case .delete:
                    guard try TeamStore.server(uid: edit.uid, db) == nil,
                          let base = try TeamStore.base(uid: edit.uid, db), !base.deleted else { continue }
                    _ = try TeamApply.insertShared(base, name: TeamStore.freeName(base.name, uid: base.uid, db),
                                                   at: Date(), db)
                }
            }
        }
    }

    /// Replaces the edits `editIds` with the conflicts a push found: the edits leave the outbox, the conflicts are
    /// kept (with this member's values: nothing is lost) and the local rows show the team's values until the
    /// editor chooses (`resolveTeamConflict`). A server the team removed leaves the list.
    public func recordTeamConflicts(_ conflicts: [TeamConflict], replacing editIds: [Int64]) throws(InventoryError) {
        try write { db in
            for id in editIds { try db.execute(sql: "DELETE FROM team_outbox WHERE id = ?", arguments: [id]) }
            for conflict in conflicts {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO team_conflict (uid, field, name, base, mine, theirs, theirsDeleted, \
                    theirsBy, theirsRevision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [conflict.uid, conflict.field.rawValue, conflict.name, conflict.base,
                                     conflict.mine, conflict.theirs, conflict.theirsDeleted, conflict.theirsBy,
                                     conflict.theirsRevision])
                guard var server = try TeamStore.server(uid: conflict.uid, db) else { continue }
                if conflict.theirsDeleted {
                    try server.delete(db)
                    continue
                }
                server.setShared(conflict.field, conflict.theirs)
                if conflict.field == .name {
                    server.name = try TeamStore.freeName(conflict.theirs, uid: conflict.uid, db)
                }
                try server.update(db)
            }
        }
    }

    /// The conflicts waiting for a choice, by server then field.
    public func teamConflicts() throws(InventoryError) -> [TeamConflict] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM team_conflict").map(TeamOutbox.conflict)
            .sorted { ($0.uid, $0.field) < ($1.uid, $1.field) }
        }
    }

    /// Settles the conflict on `field` of the server `uid`. Keeping theirs drops the conflict (the list shows the
    /// team's value already). Keeping mine sets the local row's field back to this member's value and queues an
    /// update made against the team's value (`baseRevision` theirs), merged with any edit waiting for that server;
    /// for a server the team removed, keeping mine adds it again as a new shared server (a new uid, every field).
    public func resolveTeamConflict(uid: String, field: SharedField, keepMine: Bool, at date: Date = Date())
        throws(InventoryError) {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM team_conflict WHERE uid = ? AND field = ?",
                                             arguments: [uid, field.rawValue]) else {
                throw InventoryError(.invalidValue, "", """
                    No conflict waits on the \(field.rawValue) of that server. `essh team conflicts` lists them.
                    """)
            }
            let conflict = TeamOutbox.conflict(row)
            try db.execute(sql: "DELETE FROM team_conflict WHERE uid = ? AND field = ?",
                           arguments: [uid, field.rawValue])
            guard keepMine, conflict.mine != conflict.theirs || conflict.theirsDeleted else { return }
            _ = try TeamOutbox.editorLink(db, refusing: "keep your value of '\(conflict.name)'")
            if conflict.theirsDeleted {
                guard var base = try TeamStore.base(uid: uid, db) else { return }
                base.set(field, conflict.mine)
                base.uid = Server.newUID()
                let name = try TeamStore.freeName(base.name, uid: base.uid, db)
                try TeamApply.insertShared(base, name: name, at: date, db, teamRevision: 0)
                try TeamOutbox.queue(TeamEdit(uid: base.uid, kind: .create, baseRevision: 0, base: [:],
                                              mine: base.values, createdAt: date), db)
                return
            }
            guard var server = try TeamStore.server(uid: uid, db) else {
                throw InventoryError(.unknownServer, uid, """
                    The server '\(conflict.name)' is no longer in your list; your value \
                    '\(ControlCharacters.visible(conflict.mine))' of its \(field.rawValue) was not kept.
                    """)
            }
            server.setShared(field, conflict.mine)
            if field == .name, try Server.named(conflict.mine).filter(Column("uid") != uid).fetchCount(db) > 0 {
                throw InventoryError(.duplicateName, "", """
                    A server named '\(conflict.mine)' is already saved; rename it first, then keep your name.
                    """)
            }
            server.updatedAt = date.databasePrecision
            try server.update(db)
            var edit = try TeamOutbox.pending(uid: uid, db)
                ?? TeamEdit(uid: uid, kind: .update, baseRevision: conflict.theirsRevision, base: [:], mine: [:],
                            createdAt: date)
            if edit.kind == .update {
                edit.base[field] = conflict.theirs
            }
            edit.mine[field] = conflict.mine
            try TeamOutbox.queue(edit, db)
        }
    }
}

/// The outbox's rows and the rule that intercepts edits of shared servers.
enum TeamOutbox {
    static func edit(_ row: Row) -> TeamEdit {
        TeamEdit(id: row["id"], uid: row["uid"], kind: TeamEdit.Kind(rawValue: row["kind"]) ?? .update,
                 baseRevision: row["baseRevision"], base: fields(row["base"]), mine: fields(row["mine"]),
                 createdAt: row["createdAt"])
    }

    static func edit(id: Int64, _ db: Database) throws -> TeamEdit? {
        try Row.fetchOne(db, sql: "SELECT * FROM team_outbox WHERE id = ?", arguments: [id]).map(edit)
    }

    static func pending(uid: String, _ db: Database) throws -> TeamEdit? {
        try Row.fetchOne(db, sql: "SELECT * FROM team_outbox WHERE uid = ?", arguments: [uid]).map(edit)
    }

    /// Every waiting edit by server uid (the apply overlays them).
    static func pendingByUid(_ db: Database) throws -> [String: TeamEdit] {
        let edits = try Row.fetchAll(db, sql: "SELECT * FROM team_outbox").map(edit)
        return Dictionary(edits.map { ($0.uid, $0) }, uniquingKeysWith: { _, last in last })
    }

    static func conflict(_ row: Row) -> TeamConflict {
        TeamConflict(uid: row["uid"], name: row["name"], field: SharedField(rawValue: row["field"]) ?? .name,
                     base: row["base"], mine: row["mine"], theirs: row["theirs"], theirsDeleted: row["theirsDeleted"],
                     theirsBy: row["theirsBy"], theirsRevision: row["theirsRevision"])
    }

    /// Queues `edit`, replacing the waiting edit for its server (there is at most one); an update left with no
    /// field is dropped instead.
    static func queue(_ edit: TeamEdit, _ db: Database) throws {
        if edit.kind == .update, edit.mine.isEmpty {
            try db.execute(sql: "DELETE FROM team_outbox WHERE uid = ?", arguments: [edit.uid])
            return
        }
        let arguments: StatementArguments = [edit.uid, edit.kind.rawValue, edit.baseRevision, text(edit.base),
                                             text(edit.mine), edit.createdAt.databasePrecision]
        if let id = edit.id {
            try db.execute(sql: """
                UPDATE team_outbox SET uid = ?, kind = ?, baseRevision = ?, base = ?, mine = ?, createdAt = ? \
                WHERE id = ?
                """, arguments: arguments + [id])
        } else {
            try db.execute(sql: "DELETE FROM team_outbox WHERE uid = ?", arguments: [edit.uid])
            try db.execute(sql: """
                INSERT INTO team_outbox (uid, kind, baseRevision, base, mine, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: arguments)
        }
    }

    /// The link, when this member is an editor; otherwise the error saying who may `action`.
    static func editorLink(_ db: Database, refusing action: String) throws -> TeamLink {
        guard let link = try TeamStore.link(db) else { throw InventoryError.notLinked }
        guard link.role == .editor else {
            throw InventoryError(.teamReadOnly, action, """
                Only the team's editors may \(action); you are a member of the team (\(link.member)).
                """)
        }
        return link
    }

    /// The rule for a change of a shared server, one for the CLI and the interface: changing only personal fields
    /// queues nothing; a member changing a shared field is refused; an editor's change is queued with it, merged
    /// with the edit waiting for that server (the earliest base of each field kept, a field changed back to its
    /// base dropped).
    static func interceptUpdate(old: Server, new: Server, at date: Date, _ db: Database) throws {
        let changed = new.sharedFieldsChanged(from: old)
        guard old.isShared, !changed.isEmpty else { return }
        guard let link = try TeamStore.link(db) else { throw InventoryError.notLinked }
        guard link.role == .editor else {
            let fields = changed.map(\.rawValue).joined(separator: ", ")
            throw InventoryError(.teamReadOnly, fields, """
                '\(old.name)' is the team's server: only the team's editors may change its shared fields (here \
                \(fields)); you are a member. Its personal fields (note, credential, key, algorithms, tunnels) are \
                yours to change.
                """)
        }
        let base = try TeamStore.base(uid: old.uid, db)
        var edit = try pending(uid: old.uid, db)
            ?? TeamEdit(uid: old.uid, kind: .update, baseRevision: base?.revision ?? old.teamRevision ?? 0,
                        base: [:], mine: [:], createdAt: date)
        if edit.kind == .create {
            edit.mine = Dictionary(uniqueKeysWithValues: SharedField.allCases.map { ($0, new.sharedValue($0)) })
        } else {
            for field in changed {
                let value = new.sharedValue(field)
                let start = edit.base[field] ?? base?.value(field) ?? old.sharedValue(field)
                if value == start {
                    edit.base[field] = nil
                    edit.mine[field] = nil
                } else {
                    edit.base[field] = start
                    edit.mine[field] = value
                }
            }
        }
        try queue(edit, db)
    }

    /// The rule for removing a shared server: a member is refused; an editor's removal is queued (a server added
    /// here and never pushed simply leaves the outbox).
    static func interceptRemove(_ server: Server, at date: Date, _ db: Database) throws {
        guard server.isShared else { return }
        guard let link = try TeamStore.link(db) else { throw InventoryError.notLinked }
        guard link.role == .editor else {
            throw InventoryError(.teamReadOnly, server.name, """
                '\(server.name)' is the team's server: only the team's editors may remove it; you are a member. \
                Its personal fields (note, credential, key, algorithms, tunnels) are yours to change.
                """)
        }
        let waiting = try pending(uid: server.uid, db)
        if waiting?.kind == .create {
            try db.execute(sql: "DELETE FROM team_outbox WHERE uid = ?", arguments: [server.uid])
            return
        }
        let base = try TeamStore.base(uid: server.uid, db)
        try queue(TeamEdit(uid: server.uid, kind: .delete,
                           baseRevision: waiting?.baseRevision ?? base?.revision ?? server.teamRevision ?? 0,
                           base: [:], mine: [:], createdAt: date), db)
    }

    private static func text(_ fields: [SharedField: String]) -> String {
        let plain = Dictionary(uniqueKeysWithValues: fields.map { ($0.key.rawValue, $0.value) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(plain)) ?? Data("{}".utf8), as: UTF8.self)
    }

    private static func fields(_ text: String) -> [SharedField: String] {
        let plain = (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
        return Dictionary(uniqueKeysWithValues: plain.compactMap { key, value in
            SharedField(rawValue: key).map { ($0, value) }
        })
    }
}
