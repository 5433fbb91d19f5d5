import Foundation

/// A program that could not be started at all (missing, not executable, out of processes).
public struct SpawnFailure: Error, Sendable, Equatable {
    /// The program.
    public let path: String
    /// The errno posix_spawn gave.
    public let code: Int32

    /// strerror's text for `code` ("No such file or directory").
    public var reason: String { String(cString: strerror(code)) }
}
