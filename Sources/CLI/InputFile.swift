import Basics
import Foundation

/// The input a command reads whole: the FILE the person named (`essh parse`, `essh mail`) or standard input. A pipe
/// or a process substitution (`<(ip route)`) is read like a file; a folder or a file that cannot be opened fails with
/// a `FileSystemError` naming the path (exit status 2).
enum InputFile {
    /// Every byte of `path`, or of standard input when `path` is nil. `action` names the reading in the error
    /// ("read the password file").
    static func read(_ path: String?, action: String = "read") throws(FileSystemError) -> [UInt8] {
        guard let path else { return try readAll(STDIN_FILENO, name: "standard input", action: action) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw FileSystemError(path: path, errno: errno, action: action) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileSystemError(path: path, errno: EISDIR, action: action)
        }
        return try readAll(fd, name: path, action: action)
    }

    private static func readAll(_ fd: Int32, name: String, action: String) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: name, errno: errno, action: action)
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }
}
