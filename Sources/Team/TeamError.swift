import Basics
import CLibPQ

/// Why a team operation failed, as a sentence (the one error type of the Team module, libpq's failures included);
/// the local inventory is never changed by a failed one.
public struct TeamError: UserFacingError, Sendable, Equatable {
    public enum Kind: String, Sendable {
        case badURL = "bad-url"
        case connect
        case needsPassword = "needs-password"
        case authenticationFailed = "authentication-failed"
        case tls
        case permission
        /// The database holds no eSSH team schema.
        case noSchema = "no-schema"
        /// The schema is newer than this eSSH.
        case schemaTooNew = "schema-too-new"
        /// The login role has no rights on the team's tables.
        case notInTeam = "not-in-team"
        /// This inventory is not linked to a team (or is linked to another).
        case notLinked = "not-linked"
        case connectionLost = "connection-lost"
        case statement
        case cache
        /// PostgreSQL's client library (libpq.so.5) cannot be loaded.
        case library
    }

    public let kind: Kind
    public let message: String
    /// PostgreSQL's SQLSTATE for a refused statement.
    public let sqlState: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    /// Opens libpq, once per process (essh does not link it: CLibPQ.h says why).
    static func loadLibrary() throws(TeamError) {
        if let failure = essh_pq_load() { throw TeamError(.library, String(cString: failure)) }
    }

    /// Whether the server could not be reached or went away: an offline moment, not a refusal.
    public var isOffline: Bool { kind == .connect || kind == .connectionLost }

    static func schemaTooNew(_ found: Int) -> TeamError {
        TeamError(.schemaTooNew, "The team database has eSSH schema version \(found); this eSSH knows versions up to "
            + "\(TeamSchema.version). Update eSSH to use it; nothing was changed.")
    }

    static func noSchema(_ target: String) -> TeamError {
        TeamError(.noSchema, "The database \(target) holds no eSSH team schema. An administrator creates it with "
            + "`essh team init URL`.")
    }

    /// Classifies libpq's message about a failed connection.
    static func connectFailure(_ message: String, target: String) -> TeamError {
        let lower = message.lowercased()
        // libpq's own words when the server asked for a password and none came from the caller or ~/.pgpass
        // (PQconnectionUsedPassword is true whenever the server asked, so it cannot tell).
        if lower.contains("no password supplied") {
            return TeamError(.needsPassword, "PostgreSQL at \(target) asks for a password and none was given "
                + "(none in ~/.pgpass nor the vault).")
        }
        if lower.contains("password authentication failed") || lower.contains("authentication failed") {
            return TeamError(.authenticationFailed, "PostgreSQL at \(target) refused the login: \(message)")
        }
        if lower.contains("ssl") || lower.contains("certificate") || lower.contains("tls") {
            var advice = ""
            if lower.contains("does not match host name") {
                advice = " Connect with the name the certificate holds, or pin the right certificate "
                    + "(sslrootcert=FILE)."
            } else if lower.contains("certificate verify failed") {
                advice = " The server's certificate does not verify against the CA store (or the pinned "
                    + "certificate)."
            }
            return TeamError(.tls, "TLS to PostgreSQL at \(target) failed: \(message).\(advice)")
        }
        return TeamError(.connect, "Cannot connect to PostgreSQL at \(target): \(message)")
    }

    /// Classifies a refused statement.
    static func statementFailure(_ message: String, sqlState: String?) -> TeamError {
        if sqlState == "42501" {
            return TeamError(.permission, "PostgreSQL refused: \(message)", sqlState: sqlState)
        }
        return TeamError(.statement, "PostgreSQL refused a statement: \(message)", sqlState: sqlState)
    }
}
