import Foundation
import LocalProcess

/// What a program started right now, without closing anything, inherits from this process: where each of its
/// descriptors above 2 points (`pipe:[…]`, a path). Tests use it to catch descriptors that are not close-on-exec.
public enum InheritedDescriptors {
    /// The targets of the descriptors (3 and up) a freshly started /bin/sh holds.
    public static func ofAProgramStartedNow() throws -> [String] {
        var template = Array((NSTemporaryDirectory() + "essh-fds-XXXXXX").utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard output >= 0 else { throw Failure(description: "mkstemp: \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(output) }
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", """
            for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && readlink "$f"; done; true
            """], stdout: output)
        guard ChildProcess.wait(pid, timeout: 10) == .exited(0) else {
            throw Failure(description: "the descriptor probe did not finish")
        }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let n = pread(output, &bytes, bytes.count, 0)
        return String(decoding: bytes.prefix(max(0, n)), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The probe failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Waits up to `timeout` seconds for `path` to exist, then returns its text without the final newline.
    public static func waitForFile(_ path: String, timeout: TimeInterval = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: path) {
            if Date() > deadline { throw Failure(description: "\(path) did not appear within \(Int(timeout)) s") }
            usleep(20_000)
        }
        return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .newlines)
    }
}
