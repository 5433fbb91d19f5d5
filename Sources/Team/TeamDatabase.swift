import Foundation
import Inventory

/// The team database: eSSH's schema in a PostgreSQL database, reached through one connection. Pulls what changed
/// after a revision, pushes an editor's queued edits (a field someone else changed since the edit's base is a
/// conflict, never overwritten), pins host keys and publishes check results.
public final class TeamDatabase {
    public let connection: PGConnection
    /// What the login role may do.
    public let role: TeamRole
    public let url: TeamURL

    /// Connects and checks the schema and the role's rights: a database without eSSH's schema, a newer schema or a
    /// role without rights on it is refused with a sentence saying what to do.
    public static func open(url: String, password: [UInt8]? = nil, timeout: Int = 10) throws(TeamError)
        -> TeamDatabase {
        let parsed = try TeamURL(url)
        let connection = try PGConnection.connect(url: url, password: password, timeout: timeout)
        let role = try checkSchemaAndRole(connection, target: parsed.display)
        return TeamDatabase(connection: connection, role: role, url: parsed)
    }

    private init(connection: PGConnection, role: TeamRole, url: TeamURL) {
        self.connection = connection
        self.role = role
        self.url = url
    }

    static func checkSchemaAndRole(_ connection: PGConnection, target: String) throws(TeamError) -> TeamRole {
        let schema = try connection.execute("""
            SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = 'essh'),
            has_schema_privilege((SELECT oid FROM pg_namespace WHERE nspname = 'essh'), 'USAGE')
            """).rows.first ?? []
        guard schema.first == "t" else { throw TeamError.noSchema(target) }
        guard schema.count > 1, schema[1] == "t" else { throw notInTeam(connection) }
        guard let version = try TeamSchema.installedVersion(on: connection) else {
            throw TeamError.noSchema(target)
        }
        if version > TeamSchema.version { throw TeamError.schemaTooNew(version) }
        if version < TeamSchema.version {
            throw TeamError(.noSchema, "The team database has eSSH schema version \(version), older than this "
                + "eSSH's \(TeamSchema.version): an administrator updates it with `essh team init URL`.")
        }
        let rights = try connection.execute("""
            SELECT has_table_privilege('essh.servers', 'UPDATE'), has_table_privilege('essh.servers', 'SELECT')
            """)
        let row = rights.rows.first ?? []
        if row.first == "t" { return .editor }
        if row.count > 1, row[1] == "t" { return .member }
        throw notInTeam(connection)
    }

    private static func notInTeam(_ connection: PGConnection) -> TeamError {
        TeamError(.notInTeam, "The PostgreSQL role \(connection.user) is not in the team: an administrator runs "
            + "GRANT \(TeamSchema.memberRole) TO \(connection.user) (or \(TeamSchema.editorRole) for an editor).")
    }

    // MARK: Pull

    private static let serverColumns = """
        uid::text, name, host, port, "user", jump, tags, os, revision, deleted, changed_by, \
        extract(epoch FROM changed_at)
        """

    /// Everything that changed after `revision`, read in one snapshot; removed rows come as tombstones except on a
    /// first pull (revision 0).
    public func pull(since revision: Int64) throws(TeamError) -> TeamChanges {
        return try connection.transaction("REPEATABLE READ READ ONLY") { (c) throws(TeamError) -> TeamChanges in
            let since = String(revision)
            let liveOnly = revision == 0 ? "AND NOT deleted" : ""
            let servers = try c.execute(
                "SELECT \(Self.serverColumns) FROM essh.servers WHERE revision > $1 \(liveOnly) ORDER BY revision",
                [since])
            let pins = try c.execute("""
                SELECT host, port, key_type, key, fingerprint, changed_by, extract(epoch FROM changed_at), \
                revision, deleted FROM essh.host_keys WHERE revision > $1 \(liveOnly) ORDER BY revision
                """, [since])
            let checks = try c.execute("""
                SELECT server_uid::text, member, status, latency_ms, extract(epoch FROM checked_at), revision \
                FROM essh.checks WHERE revision > $1 ORDER BY revision
                """, [since])
            // On a first pull removed rows are left out, but the revision reached covers them: the newest in this
            // snapshot (the sequence itself is not read: it may hold a revision not yet committed).
            var newest = revision
            if revision == 0 {
                newest = Int64(try c.execute("""
                    SELECT greatest((SELECT max(revision) FROM essh.servers), (SELECT max(revision) FROM \
                    essh.host_keys), (SELECT max(revision) FROM essh.checks), 0)
                    """).scalar ?? "0") ?? 0
            }
            var changes = TeamChanges(revision: newest)
            changes.servers = servers.rows.map(Self.server)
            changes.pins = pins.rows.map(Self.pin)
            changes.checks = checks.rows.map(Self.check)
            let seen = changes.servers.map(\.revision) + changes.pins.map(\.revision)
                + checks.rows.map { Int64($0[5] ?? "0") ?? 0 }
            changes.revision = max(newest, seen.max() ?? revision)
            return changes
        }
    }

    static func server(_ row: [String?]) -> SharedServer {
        SharedServer(uid: row[0] ?? "", name: row[1] ?? "", host: row[2] ?? "", port: Int(row[3] ?? "") ?? 22,
                     user: row[4], jump: row[5] ?? "",
                     tags: (row[6] ?? "").split(separator: ",").map(String.init), os: row[7] ?? "auto",
                     revision: Int64(row[8] ?? "") ?? 0, deleted: row[9] == "t", changedBy: row[10] ?? "",
                     changedAt: date(row[11]))
    }

    static func pin(_ row: [String?]) -> TeamPin {
        TeamPin(host: row[0] ?? "", port: Int(row[1] ?? "") ?? 22, keyType: row[2] ?? "", key: row[3] ?? "",
                fingerprint: row[4] ?? "", pinnedBy: row[5] ?? "", pinnedAt: date(row[6]),
                revision: Int64(row[7] ?? "") ?? 0, deleted: row[8] == "t")
    }

    static func check(_ row: [String?]) -> TeamCheck {
        TeamCheck(serverUid: row[0] ?? "", member: row[1] ?? "", status: row[2] ?? "",
                  latencyMs: row[3].flatMap(Double.init), checkedAt: date(row[4]))
    }

    private static func date(_ text: String?) -> Date {
        Date(timeIntervalSince1970: text.flatMap(Double.init) ?? 0)
    }

    // MARK: Push

    /// What became of a push: the edits applied, those that met a conflict (kept as conflicts), and those refused.
    public struct PushOutcome: Sendable {
        public var applied: [Int64] = []
        public var conflicts: [Int64: [TeamConflict]] = [:]
        public var refused: [Int64: TeamError] = [:]
    }

    /// Pushes queued edits, each in its own transaction. A field whose team value still equals the edit's base takes
    /// the edit's value; one equal to the edit's value needs nothing; any other is a conflict for the editor to
    /// settle, and the other fields of that edit still go in. A refusal (a member's edit, a name another server has)
    /// is reported for that edit alone; losing the connection stops the push (what went in stays in).
    public func push(_ edits: [TeamEdit], name: (TeamEdit) -> String = TeamDatabase.name) throws(TeamError)
        -> PushOutcome {
        var outcome = PushOutcome()
        for edit in edits {
            guard let id = edit.id else { continue }
            do {
                let conflicts = try connection.transaction { (c) throws(TeamError) -> [TeamConflict] in
                    try Self.apply(edit, on: c)
                }
                if conflicts.isEmpty { outcome.applied.append(id) } else { outcome.conflicts[id] = conflicts }
            } catch {
                if error.kind == .connectionLost || error.kind == .connect { throw error }
                outcome.refused[id] = Self.refusal(error, name: name(edit), user: connection.user)
            }
        }
        return outcome
    }

    /// The name an edit's server goes by, as far as the edit knows it (a rename's new name, else its uid).
    public static func name(_ edit: TeamEdit) -> String { edit.mine[.name] ?? edit.base[.name] ?? edit.uid }

    private static func refusal(_ error: TeamError, name: String, user: String) -> TeamError {
        switch error.sqlState {
        case "42501":
            return TeamError(.permission, "The team database refused the change to \(name): the PostgreSQL role "
                + "\(user) is not an editor (an administrator runs GRANT \(TeamSchema.editorRole) TO \(user)).")
        case "23505":
            return TeamError(.statement, "The team already has a server named \(name); rename yours and push again.")
        default:
            return TeamError(.statement, "The team database refused the change to \(name): \(error.message)")
        }
    }

    private static func apply(_ edit: TeamEdit, on c: PGConnection) throws(TeamError) -> [TeamConflict] {
        switch edit.kind {
        case .create:
            var server = SharedServer(uid: edit.uid, name: "", host: "", port: 22, user: nil, jump: "", tags: [],
                                      os: "auto")
            for (field, value) in edit.mine { server.set(field, value) }
            try c.execute("""
                INSERT INTO essh.servers (uid, name, host, port, "user", jump, tags, os)
                VALUES ($1::uuid, $2, $3, $4::integer, $5, $6, $7, $8) ON CONFLICT (uid) DO NOTHING
                """, [server.uid, server.name, server.host, String(server.port), server.user, server.jump,
                      server.value(.tags), server.os])
            return []
        case .delete:
            try c.execute("UPDATE essh.servers SET deleted = true WHERE uid = $1::uuid AND NOT deleted", [edit.uid])
            return []
        case .update:
            let rows = try c.execute(
                "SELECT \(serverColumns) FROM essh.servers WHERE uid = $1::uuid FOR UPDATE", [edit.uid])
            guard let row = rows.rows.first else {
                return edit.mine.keys.sorted().map { field in
                    TeamConflict(uid: edit.uid, name: edit.mine[.name] ?? edit.base[.name] ?? "", field: field,
                                 base: edit.base[field] ?? "", mine: edit.mine[field] ?? "", theirs: "",
                                 theirsDeleted: true, theirsBy: "", theirsRevision: 0)
                }
            }
            let theirs = server(row)
            if theirs.deleted {
                return edit.mine.keys.sorted().map { field in
                    TeamConflict(uid: edit.uid, name: theirs.name, field: field, base: edit.base[field] ?? "",
                                 mine: edit.mine[field] ?? "", theirs: "", theirsDeleted: true,
                                 theirsBy: theirs.changedBy, theirsRevision: theirs.revision)
                }
            }
            var merged = theirs
            var conflicts: [TeamConflict] = []
            for field in edit.mine.keys.sorted() {
                let mine = edit.mine[field] ?? ""
                let current = theirs.value(field)
                if current == mine { continue }
                if current == (edit.base[field] ?? "") {
                    merged.set(field, mine)
                } else {
                    conflicts.append(TeamConflict(uid: edit.uid, name: theirs.name, field: field,
                                                  base: edit.base[field] ?? "", mine: mine, theirs: current,
                                                  theirsBy: theirs.changedBy, theirsRevision: theirs.revision))
                }
            }
            if merged != theirs {
                try c.execute("""
                    UPDATE essh.servers SET name = $2, host = $3, port = $4::integer, "user" = $5, jump = $6,
                    tags = $7, os = $8 WHERE uid = $1::uuid
                    """, [merged.uid, merged.name, merged.host, String(merged.port), merged.user, merged.jump,
                          merged.value(.tags), merged.os])
            }
            return conflicts
        }
    }

    // MARK: Pins and checks

    /// Pins `pin`'s key for its host and port (an editor's right), replacing a pin of the same key type.
    public func pin(_ pin: TeamPin) throws(TeamError) {
        do {
            try connection.execute("""
                INSERT INTO essh.host_keys (host, port, key_type, key, fingerprint) VALUES ($1, $2::integer, $3, $4, $5)
                ON CONFLICT (host, port, key_type) DO UPDATE
                SET key = excluded.key, fingerprint = excluded.fingerprint, deleted = false
                """, [pin.host, String(pin.port), pin.keyType, pin.key, pin.fingerprint])
        } catch {
            if error.sqlState == "42501" {
                throw TeamError(.permission, "The team database refused the pin: the PostgreSQL role "
                    + "\(connection.user) is not an editor (an administrator runs GRANT \(TeamSchema.editorRole) "
                    + "TO \(connection.user)).")
            }
            throw error
        }
    }

    /// Removes the pins of host:port (of one key type, or all); returns how many.
    @discardableResult
    public func unpin(host: String, port: Int, keyType: String? = nil) throws(TeamError) -> Int {
        return try connection.execute("""
            UPDATE essh.host_keys SET deleted = true WHERE host = $1 AND port = $2::integer AND NOT deleted
            AND ($3::text IS NULL OR key_type = $3)
            """, [host, String(port), keyType]).affected
    }

    /// Publishes this member's latest checks (servers the team no longer has are skipped). A check no newer than the
    /// one published is not even tried: the trigger would take a revision and wake every member for nothing.
    public func publish(_ checks: [TeamCheck]) throws(TeamError) {
        guard !checks.isEmpty else { return }
        try connection.transaction { (c) throws(TeamError) in
            for check in checks {
                try c.execute("""
                    INSERT INTO essh.checks (server_uid, status, latency_ms, checked_at)
                    SELECT $1::uuid, $2, $3::double precision, to_timestamp($4::double precision)
                    WHERE EXISTS (SELECT FROM essh.servers WHERE uid = $1::uuid AND NOT deleted)
                    AND NOT EXISTS (SELECT FROM essh.checks WHERE server_uid = $1::uuid AND member = session_user
                                    AND checked_at >= to_timestamp($4::double precision))
                    ON CONFLICT (server_uid, member) DO UPDATE SET status = excluded.status,
                    latency_ms = excluded.latency_ms, checked_at = excluded.checked_at
                    WHERE essh.checks.checked_at < excluded.checked_at
                    """, [check.serverUid, check.status, check.latencyMs.map { String($0) },
                          String(check.checkedAt.timeIntervalSince1970)])
            }
        }
    }

    // MARK: Live changes

    /// Starts listening for other members' changes.
    public func listen() throws(TeamError) {
        try connection.listen(TeamSchema.channel)
    }

    /// Waits up to `timeout` seconds for a change announcement, or until `wake` is readable; true when one came.
    public func waitForChange(timeout: Double, wake: Int32? = nil) throws(TeamError) -> Bool {
        return try !connection.waitForNotifications(timeout: timeout, wake: wake).isEmpty
    }
}
