import Foundation
import Synchronization

/// A plain-text log for what the screen cannot show in full (libssh2's detail behind a failed connection, a
/// database error): `$XDG_STATE_HOME/essh/essh.log` (else `~/.local/state/essh/essh.log`), in a 0700 directory,
/// the file 0600. Never the terminal, never a secret. Writing is best effort: a log that cannot be written is
/// not a reason to stop the interface.
final class AppLog: Sendable {
    private let path: String?
    /// The open file, once something was written; FileHandle is not Sendable, so it lives only inside the lock.
    private let handle = Mutex<FileHandle?>(nil)

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
        handle.withLock { handle in
            if handle == nil { handle = open() }
            handle?.write(Data("\(stamp) \(text)\n".utf8))
        }
    }

    private func open() -> FileHandle? {
        guard let path else { return nil }
        let dir = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}
