import Foundation
import LocalProcess
import Synchronization

/// A plain-text log for what the screen cannot show in full (libssh2's detail behind a failed connection, a
/// database error): `$XDG_STATE_HOME/essh/essh.log` (else `~/.local/state/essh/essh.log`), in a 0700 directory,
/// the file 0600. Never the terminal, never a secret. Writing is best effort: a log that cannot be written is
/// not a reason to stop the interface.
final class AppLog: Sendable {
    deinit { descriptor.withLock { if $0 >= 0 { close($0) } } }

    private let path: String?
    /// The open file's descriptor, once something was written (-1: not yet; -2: could not be opened).
    private let descriptor = Mutex<Int32>(-1)

    init(environment: [String: String]) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        path = state + "/essh/essh.log"
    }

    /// The log file's path.
    var filePath: String? { path }

    func write(_ line: String) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        let text = line.replacingOccurrences(of: "\n", with: " ")
        var entry = "\(stamp) \(text)\n"
        descriptor.withLock { fd in
            if fd == -1 { fd = open() ?? -2 }
            // Straight to the descriptor: FileHandle's write would stop the interface on a full disk.
            if fd >= 0 { entry.withUTF8 { _ = writeAll(fd, UnsafeRawBufferPointer($0)) } }
        }
    }

    private func open() -> Int32? {
        guard let path else { return nil }
        let dir = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        return fd >= 0 ? fd : nil
    }
}
