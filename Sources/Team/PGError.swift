import Basics

/// What went wrong talking to PostgreSQL, as a sentence a person can act on.
public struct PGError: UserFacingError, Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The URL cannot be read, or it holds what eSSH refuses (a password).
        case badURL = "bad-url"
        /// The server cannot be reached (refused, no such host, timed out).
        case connect
        /// The server asks for a password and none was given.
        case needsPassword = "needs-password"
        /// The password (or other credential) was refused.
        case authenticationFailed = "authentication-failed"
        /// TLS failed: the certificate does not verify or does not name the host, or the server has no TLS.
        case tls
        /// The server refused the statement for lack of rights (SQLSTATE 42501).
        case permission
        /// Any other refused statement.
        case statement
        /// The connection went away mid-way.
        case connectionLost = "connection-lost"
    }

    public let kind: Kind
    /// The sentence to show.
    public let message: String
    /// PostgreSQL's SQLSTATE for a refused statement.
    public let sqlState: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }



    /// Classifies libpq's message about a failed connection.
    static func connectFailure(_ message: String, target: String) -> PGError {
        let lower = message.lowercased()
        // libpq's own words when the server asked for a password and none came from the caller or ~/.pgpass
        // (PQconnectionUsedPassword is true whenever the server asked, so it cannot tell).
        if lower.contains("no password supplied") {
            return PGError(.needsPassword, "PostgreSQL at \(target) asks for a password and none was given "
                + "(none in ~/.pgpass nor the vault).")
        }
        if lower.contains("password authentication failed") || lower.contains("authentication failed") {
            return PGError(.authenticationFailed, "PostgreSQL at \(target) refused the login: \(message)")
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
            return PGError(.tls, "TLS to PostgreSQL at \(target) failed: \(message).\(advice)")
        }
        return PGError(.connect, "Cannot connect to PostgreSQL at \(target): \(message)")
    }

    /// Classifies a refused statement.
    static func statementFailure(_ message: String, sqlState: String?) -> PGError {
        if sqlState == "42501" {
            return PGError(.permission, "PostgreSQL refused: \(message)", sqlState: sqlState)
        }
        return PGError(.statement, "PostgreSQL refused a statement: \(message)", sqlState: sqlState)
    }
}
