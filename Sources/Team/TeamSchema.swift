/// eSSH's schema in a team database (`essh`), in versioned migrations. A migration is never edited once shipped: a
/// change is a new one at the end, as with the local SQLite database.
public enum TeamSchema {
    /// The group roles a team's login roles are granted: editors change shared servers and pin host keys; members
    /// read them and publish check results. PostgreSQL's roles, grants and row-level security enforce it.
    public static let editorRole = "essh_editors"
    public static let memberRole = "essh_members"
    /// The channel changes are announced on (one notification per committing transaction).
    public static let channel = "essh_changes"

    /// The migrations, in order; the schema's version is the number applied.
    static let migrations: [String] = [
        // 1: servers, pinned host keys, published checks; one revision counter; the roles.
        """
        CREATE SCHEMA essh;
        CREATE TABLE essh.meta (key text PRIMARY KEY, value text NOT NULL);
        CREATE SEQUENCE essh.revision;
        CREATE TABLE essh.servers (
            uid uuid PRIMARY KEY,
            name text NOT NULL CHECK (name <> '' AND length(name) <= 200),
            host text NOT NULL CHECK (host <> ''),
            port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
            "user" text,
            jump text NOT NULL DEFAULT '',
            tags text NOT NULL DEFAULT '',
            os text NOT NULL DEFAULT 'auto',
            revision bigint NOT NULL DEFAULT 0,
            deleted boolean NOT NULL DEFAULT false,
            changed_by text NOT NULL DEFAULT session_user,
            changed_at timestamptz NOT NULL DEFAULT now());
        CREATE UNIQUE INDEX servers_live_name ON essh.servers (name) WHERE NOT deleted;
        CREATE INDEX servers_revision ON essh.servers (revision);
        CREATE TABLE essh.host_keys (
            host text NOT NULL,
            port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
            key_type text NOT NULL,
            key text NOT NULL,
            fingerprint text NOT NULL,
            revision bigint NOT NULL DEFAULT 0,
            deleted boolean NOT NULL DEFAULT false,
            changed_by text NOT NULL DEFAULT session_user,
            changed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (host, port, key_type));
        CREATE INDEX host_keys_revision ON essh.host_keys (revision);
        CREATE TABLE essh.checks (
            server_uid uuid NOT NULL REFERENCES essh.servers (uid),
            member text NOT NULL DEFAULT session_user,
            status text NOT NULL,
            latency_ms double precision,
            checked_at timestamptz NOT NULL,
            revision bigint NOT NULL DEFAULT 0,
            changed_by text NOT NULL DEFAULT session_user,
            changed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (server_uid, member));
        CREATE INDEX checks_revision ON essh.checks (revision);
        -- Every change takes the next revision under one transaction-scoped lock, so revisions follow commit order
        -- and "rows after revision R" never misses a change that commits late. Who and when come from the server.
        CREATE FUNCTION essh.stamp() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, essh AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(4242180001);
            NEW.revision := nextval('essh.revision');
            NEW.changed_by := session_user;
            NEW.changed_at := now();
            PERFORM pg_notify('essh_changes', 'changed');
            RETURN NEW;
        END $$;
        CREATE TRIGGER servers_stamp BEFORE INSERT OR UPDATE ON essh.servers
            FOR EACH ROW EXECUTE FUNCTION essh.stamp();
        CREATE TRIGGER host_keys_stamp BEFORE INSERT OR UPDATE ON essh.host_keys
            FOR EACH ROW EXECUTE FUNCTION essh.stamp();
        CREATE TRIGGER checks_stamp BEFORE INSERT OR UPDATE ON essh.checks
            FOR EACH ROW EXECUTE FUNCTION essh.stamp();
        -- The roles are the cluster's, shared by its databases: made when missing (another database's init may be
        -- making them at the same moment).
        DO $$ BEGIN
            BEGIN
                CREATE ROLE essh_members NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END;
            BEGIN
                CREATE ROLE essh_editors NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END;
        END $$;
        GRANT essh_members TO essh_editors;
        REVOKE ALL ON SCHEMA essh FROM PUBLIC;
        GRANT USAGE ON SCHEMA essh TO essh_members;
        GRANT SELECT ON essh.meta, essh.servers, essh.host_keys, essh.checks TO essh_members;
        GRANT INSERT, UPDATE ON essh.checks TO essh_members;
        GRANT INSERT, UPDATE ON essh.servers, essh.host_keys TO essh_editors;
        REVOKE ALL ON FUNCTION essh.stamp() FROM PUBLIC;
        ALTER TABLE essh.checks ENABLE ROW LEVEL SECURITY;
        CREATE POLICY checks_read ON essh.checks FOR SELECT USING (true);
        CREATE POLICY checks_publish ON essh.checks FOR INSERT WITH CHECK (member = session_user);
        CREATE POLICY checks_update ON essh.checks FOR UPDATE
            USING (member = session_user) WITH CHECK (member = session_user);
        """,
    ]

    /// The newest schema version this eSSH knows.
    public static var version: Int { migrations.count }

    /// The schema version a database holds: nil when it has no eSSH schema.
    public static func installedVersion(on connection: PGConnection) throws(TeamError) -> Int? {
        let schema = try connection.execute("SELECT to_regclass('essh.meta') IS NOT NULL")
        guard schema.scalar == "t" else { return nil }
        let row = try connection.execute("SELECT value FROM essh.meta WHERE key = 'schema_version'")
        return row.scalar.flatMap { Int($0) } ?? 0
    }

    /// Creates or updates the schema (`essh team init`): applies the migrations the database lacks, in one
    /// transaction, under a lock so two administrators cannot run them at once. Returns the versions before and after.
    public static func install(on connection: PGConnection) throws(TeamError) -> (from: Int, to: Int) {
        let found: Int?
        found = try installedVersion(on: connection)
        if let found, found > version { throw TeamError.schemaTooNew(found) }
        return try connection.transaction { (connection) throws(TeamError) -> (from: Int, to: Int) in
            try connection.execute("SELECT pg_advisory_xact_lock(4242180000)")
            let schemaExists = try connection.execute(
                "SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = 'essh')").scalar == "t"
            let current = try installedVersion(on: connection)
            if schemaExists && current == nil {
                throw TeamError(.statement, "The database already has a schema named essh that eSSH did not make; "
                    + "eSSH leaves it alone. Use another database.")
            }
            let from = current ?? 0
            if from > version {
                throw TeamError(.statement, TeamError.schemaTooNew(from).message)
            }
            for index in from..<version {
                try connection.executeScript(migrations[index])
            }
            try connection.execute("""
                INSERT INTO essh.meta (key, value) VALUES ('schema_version', $1)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, [String(version)])
            return (from, version)
        }
    }
}
