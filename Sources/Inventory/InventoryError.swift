import Basics
import Foundation

/// Every failure of the Inventory module: what kind it is, the underlying (SQLite or system) message, and a sentence
/// a person understands that says what to do.
public struct InventoryError: UserFacingError, Sendable, Equatable {
    /// What went wrong, for callers that act on it (exit codes, forms in the TUI).
    public enum Kind: String, Sendable {
        case unknownServer = "unknown-server"
        case duplicateName = "duplicate-name"
        case invalidName = "invalid-name"
        case invalidPort = "invalid-port"
        case invalidHost = "invalid-host"
        case invalidValue = "invalid-value"
        case newerDatabase = "newer-database"
        case notEsshDatabase = "not-essh-database"
        case corrupt
        case readOnly = "read-only"
        case locked
        case io
        case sqlite
        case sshConfig = "ssh-config"
        /// A change to a team's shared server that this member may not make (only editors may), or a team action
        /// that needs the editor role.
        case teamReadOnly = "team-read-only"
        /// A team action on an inventory not linked to a team.
        case notLinked = "not-linked"
    }

    /// What went wrong.
    public let kind: Kind
    /// The underlying message (SQLite's or errno's), for logs.
    public let detail: String
    /// The sentence for the person: what happened and what to do.
    public let message: String

    /// Makes an error from its kind, the underlying message and the sentence for the person.
    public init(_ kind: Kind, _ detail: String, _ message: String) {
        self.kind = kind
        self.detail = detail
        self.message = message
    }

    static func corrupt(path: String, detail: String) -> InventoryError {
        InventoryError(.corrupt, detail, """
            The database \(path) is damaged or is not an SQLite file; eSSH left it untouched. \
            Move it aside (or restore a backup) and run eSSH again, or use --db to pick another file.
            """)
    }

    static func readOnly(path: String, detail: String) -> InventoryError {
        InventoryError(.readOnly, detail, """
            The database \(path) is read-only, and eSSH needs to write it; it was left untouched. \
            Make it writable (chmod u+w \(path)) or use --db to pick another file.
            """)
    }

    static var notLinked: InventoryError {
        InventoryError(.notLinked, "", """
            This inventory is not linked to a team. Run `essh team join URL` (the URL an administrator gives) first.
            """)
    }

    static func unknownServer(_ name: String) -> InventoryError {
        InventoryError(.unknownServer, "", """
            No saved server is named '\(name)'. `essh servers list` shows the saved ones; \
            `essh servers add \(name) --host HOST` saves a new one.
            """)
    }
}
