import Basics
import Inventory
import Operations
import Foundation
import LocalProcess

/// Writes saved output to a new file readable by its owner only, never over an existing file.
enum OutputFile {
    /// Writes `bytes` to `path` (`~` is $HOME, as in a shell); returns the full path, or throws a sentence saying why not.
    static func save(_ bytes: [UInt8], to path: String,
                     home: String = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) throws -> String {
        let full = PathExpansion.expandTilde(path, home: home)
        // O_EXCL: an existing file (or a link planted in its place) is refused, never replaced.
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == EEXIST {
                throw Failure(message: "\(path) already exists; eSSH never overwrites a file. Choose another name.")
            }
            throw Failure(message: "Could not create \(path): \(reason). Choose another place.")
        }
        defer { close(fd) }
        fchmod(fd, 0o600)
        guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else {
            let reason = String(cString: strerror(errno))
            unlink(full)
            throw Failure(message: "Could not write \(path): \(reason). Nothing was saved.")
        }
        return full
    }

    struct Failure: UserFacingError {
        var message: String
    }
}
