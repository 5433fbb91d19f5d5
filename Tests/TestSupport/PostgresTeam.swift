import Foundation

/// A team database for one test (issue 18): a fresh database on `cluster`, eSSH's schema made by the real `essh team
/// init` as the superuser (its password in a 0600 file, never an argument), and login roles `<db>_ed`, `<db>_ed2`
/// (editors) and `<db>_mem` (a member), each with a random password, granted the schema's group roles.
public struct PostgresTeam: Sendable {
    public let cluster: PostgresCluster
    public let database: String
    /// Every role's password by name, the superuser's too.
    public let passwords: [String: String]

    public var editor: String { database + "_ed" }
    public var editor2: String { database + "_ed2" }
    public var member: String { database + "_mem" }

    public func url(_ user: String) -> String { cluster.url(user: user, database: database) }

    /// SQL as the superuser in the team database.
    @discardableResult
    public func sql(_ text: String) throws -> String { try cluster.psql(text, database: database) }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes the database (named `prefix` + 12 random hex digits), eSSH's schema in it unless `initialise` is false,
    /// then the roles (granted only when the schema, which makes the group roles, is there).
    public static func make(on cluster: PostgresCluster, prefix: String, initialise: Bool = true) throws
        -> PostgresTeam {
        let database = prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try cluster.createDatabase(database)
        if initialise { try initialiseSchema(cluster, database) }
        var passwords: [String: String] = [cluster.superuser: cluster.password]
        for (suffix, group) in [("_ed", "essh_editors"), ("_ed2", "essh_editors"), ("_mem", "essh_members")] {
            let role = database + suffix
            let password = UUID().uuidString
            try cluster.createRole(role, password: password)
            passwords[role] = password
            if initialise { try cluster.psql("GRANT \(group) TO \"\(role)\";") }
        }
        return PostgresTeam(cluster: cluster, database: database, passwords: passwords)
    }

    /// `essh team init` as the superuser, in a HOME of its own.
    private static func initialiseSchema(_ cluster: PostgresCluster, _ database: String) throws {
        let home = NSTemporaryDirectory() + "essh-team-init-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: home) }
        try PostgresCluster.writePassFile([cluster.password], to: home + "/pg-password")
        let r = try Binary.runEssh(["team", "init", cluster.url(user: cluster.superuser, database: database),
                                    "--password-file", home + "/pg-password"],
                                   environment: ["HOME": home, "ESSH_DB": home + "/essh.db"])
        guard r.status == 0, r.out.contains("Made eSSH's team schema") else {
            throw Failure(description: "essh team init failed (\(r.status)): \(r.out)\(r.err)")
        }
    }
}
