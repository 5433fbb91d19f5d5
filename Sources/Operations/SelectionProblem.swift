import Basics

/// Why a selection of servers cannot be made: a selector written wrong (the command line's usage), or one that
/// names nothing (a tag no server has, a pattern no name matches, an exclusion that removes nothing), so a typo
/// never silently runs on fewer or more servers than meant.
public struct SelectionProblem: UserFacingError, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The selector cannot be read (`web[5-1`, `tag:`, `!!x`): a usage error where it was typed.
        case malformed
        /// The selector reads well but names no server, or removes none.
        case noMatch
        /// Nothing says which servers, where the command needs it said (`exec` is never run on every server by
        /// default).
        case nothingSelected
        /// A hosts file's line cannot be used.
        case hostsFile
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
