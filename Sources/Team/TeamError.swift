import Basics

/// Why a team operation failed, as a sentence; the local inventory is never changed by a failed one.
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
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The team error for a PostgreSQL one.
    public init(_ error: PGError) {
        let kind: Kind = switch error.kind {
        case .badURL: .badURL
        case .connect: .connect
        case .needsPassword: .needsPassword
        case .authenticationFailed: .authenticationFailed
        case .tls: .tls
        case .permission: .permission
        case .statement: .statement
        case .connectionLost: .connectionLost
        }
        self.init(kind, error.message)
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
}
