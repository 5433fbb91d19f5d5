import Foundation
import Inventory
import Team
import TestSupport

/// The team tests' PostgreSQL: one throwaway cluster for the whole test process (started on first use, stopped at
/// exit by PostgresCluster), and a fresh database with eSSH's schema and its own editor and member roles per test.
enum TeamCluster {
    private static let started = Result { try PostgresCluster.start() }

    static func cluster() throws -> PostgresCluster { try started.get() }

    typealias Team = PostgresTeam

    /// A team on the shared cluster, or on `own` (a test that stops or kills its server starts one of its own).
    static func makeTeam(initialise: Bool = true, on own: PostgresCluster? = nil) throws -> Team {
        try PostgresTeam.make(on: try own ?? cluster(), prefix: "t", initialise: initialise)
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

extension PostgresTeam {
    /// Opens the team database as `user` with its password (given to libpq as a parameter).
    func open(_ user: String) throws -> TeamDatabase {
        try TeamDatabase.open(url: url(user), password: Array(passwords[user, default: ""].utf8))
    }
}
