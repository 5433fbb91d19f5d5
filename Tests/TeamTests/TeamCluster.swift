import Foundation
import Inventory
import Team
import TestSupport

/// The team tests' PostgreSQL: one throwaway cluster for the whole test process (started on first use, stopped at
/// exit by PostgresCluster), and a fresh database with eSSH's schema and its own editor and member roles per test.
enum TeamCluster {
    private static let started = Result { try PostgresCluster.start() }

    static func cluster() throws -> PostgresCluster { try started.get() }

    /// A team database made by `essh team init`'s code as the superuser, with login roles `<db>_ed` (an editor),
    /// `<db>_ed2` (a second editor) and `<db>_mem` (a member), each with a random password.
    struct Team {
        let cluster: PostgresCluster
        let database: String
        let passwords: [String: String]

        var editor: String { database + "_ed" }
        var editor2: String { database + "_ed2" }
        var member: String { database + "_mem" }

        func url(_ user: String) -> String { cluster.url(user: user, database: database) }

        /// Opens the team database as `user` with its password (given to libpq as a parameter).
        func open(_ user: String) throws -> TeamDatabase {
            try TeamDatabase.open(url: url(user), password: Array(passwords[user, default: ""].utf8))
        }
    }

    /// A team on the shared cluster, or on `own` (a test that stops or kills its server starts one of its own).
    static func makeTeam(initialise: Bool = true, on own: PostgresCluster? = nil) throws -> Team {
        let cluster = try own ?? cluster()
        let database = "t" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try cluster.createDatabase(database)
        var passwords: [String: String] = [cluster.superuser: cluster.password]
        if initialise {
            let admin = try PGConnection.connect(url: cluster.url(user: cluster.superuser, database: database),
                                                 password: Array(cluster.password.utf8))
            _ = try TeamSchema.install(on: admin)
        }
        for (suffix, group) in [("_ed", TeamSchema.editorRole), ("_ed2", TeamSchema.editorRole),
                                ("_mem", TeamSchema.memberRole)] {
            let role = database + suffix
            let password = UUID().uuidString
            try cluster.createRole(role, password: password)
            passwords[role] = password
            if initialise { try cluster.psql("GRANT \(group) TO \(role);") }
        }
        return Team(cluster: cluster, database: database, passwords: passwords)
    }

    /// A shared server for edits.
    static func server(_ name: String, host: String = "10.0.0.1", port: Int = 22, tags: [String] = []) -> SharedServer {
        SharedServer(uid: UUID().uuidString.lowercased(), name: name, host: host, port: port, user: "admin",
                     jump: "", tags: tags, os: "linux")
    }

    /// The create edit of `server`.
    static func create(_ server: SharedServer, id: Int64 = 1) -> TeamEdit {
        TeamEdit(id: id, uid: server.uid, kind: .create, baseRevision: 0, base: [:], mine: server.values)
    }
}
