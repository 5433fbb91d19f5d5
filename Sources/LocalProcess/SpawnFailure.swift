import Basics
import Foundation

/// A program that could not be started at all (missing, not executable, out of processes).
public struct SpawnFailure: UserFacingError, Sendable, Equatable {
    /// The program.
    public let path: String
    /// The errno posix_spawn gave.
    public let code: Int32

    /// strerror's text for `code` ("No such file or directory").
    public var reason: String { String(cString: strerror(code)) }

    /// "Could not start /usr/sbin/sendmail: No such file or directory." (callers usually say more, in their terms).
    public var message: String { "Could not start \(path): \(reason)." }
}
