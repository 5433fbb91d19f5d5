import Foundation
import LocalProcess

/// essh as ssh-keygen's `SSH_ASKPASS` (`essh key generate`): run with `ESSH_ASKPASS=stdin`, it reads one line from
/// its stdin — the pipe `KeyGeneration` filled with the passphrase — and writes it to stdout, where ssh-keygen reads
/// its answer. One byte at a time, so the second question's process finds the second line. The passphrase is never
/// in an argument or the environment; the prompt (argv[1]) is ignored.
package enum Askpass {
    /// Whether this process was started as the askpass helper.
    package static var isAsked: Bool { ProcessInfo.processInfo.environment["ESSH_ASKPASS"] == "stdin" }

    /// Answers one question and ends: 0 with a line read, 1 at end of input (ssh-keygen then gets no passphrase,
    /// which `KeyGeneration` notices and refuses).
    package static func answer() -> Never {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var ended = false
        while true {
            let n = read(0, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ended = true; break }
            if byte == 10 { break }
            line.append(byte)
        }
        line.append(10)
        let written = ended ? false : line.withUnsafeBytes { writeAll(1, $0) }
        for i in line.indices { line[i] = 0 }
        exit(written ? 0 : 1)
    }

    /// This program's own path, for `SSH_ASKPASS`.
    static func executable() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else {
            throw CommandFailure(.failed, "Cannot find essh's own program file (/proc/self/exe) to answer ssh-keygen.")
        }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
