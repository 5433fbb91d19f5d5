import Basics
import Foundation

/// Where the ssh_config reader gets files from: the file system for real, a dictionary in unit tests.
public protocol SSHConfigSource: Sendable {
    /// The paths matching the glob `pattern` (an absolute path that may hold `*`, `?`, `[...]`), sorted.
    func paths(matching pattern: String) -> [String]
    /// The text of the file at `path`.
    func read(_ path: String) throws -> String
}

/// Reads ssh_config files from the file system, never writing to them.
public struct FileSystemSSHConfigSource: SSHConfigSource {
    /// A source reading the real file system.
    public init() {}

    /// Expands `pattern` with glob(3), as OpenSSH does for Include.
    public func paths(matching pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for index in 0..<Int(result.gl_pathc) {
            if let cString = result.gl_pathv[index] { paths.append(String(cString: cString)) }
        }
        return paths.sorted()
    }

    /// The largest ssh_config file read (OpenSSH's own are a few KiB; a 16 MiB one is not a configuration).
    public static let sizeLimit = 16 << 20

    /// Reads the file as UTF-8 (invalid bytes replaced): a regular file only (never a FIFO, which would block, or a
    /// device), at most `sizeLimit` bytes.
    public func read(_ path: String) throws -> String {
        try RegularFile.text(path, limit: Self.sizeLimit)
    }
}
