import Foundation
import LocalProcess
import Testing
import TestSupport

/// What the `essh cp` tests share: the real sshd (the server's files are on this machine, so a test reads what
/// arrived directly), a local folder and a folder of the test user's on the server side, removed at the end.
struct CopyFixture {
    let s: TestServers
    let dir: TempDir
    /// A fresh folder in the test user's home, owned by them.
    let remote: String
    /// `user@127.0.0.1`.
    var server: String { "\(s.user)@127.0.0.1" }

    init() throws {
        s = try TestServers.require()
        dir = try TempDir()
        remote = s.home + "/cp-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: false)
        try own(remote)
    }

    func cleanup() {
        dir.cleanup()
        try? FileManager.default.removeItem(atPath: remote)
    }

    /// Gives `path` to the test user (the tests run as root; the server writes as the test user).
    func own(_ path: String) throws {
        guard let user = getpwnam(s.user) else { throw Failure("no user \(s.user)") }
        #expect(chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The connection options for the harness's sshd: its key, known_hosts and port.
    var connection: [String] {
        ["--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "-P", String(s.port)]
    }

    var environment: [String: String] { ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path] }

    /// `essh cp CONNECTION ARGS`.
    func cp(_ args: [String], timeout: TimeInterval = 60) throws -> RunResult {
        try Binary.runEssh(["cp"] + connection + args, environment: environment, timeout: timeout)
    }

    /// `essh cp` through `sh -c`, for words that are not UTF-8: `script` runs it as "$@" (with the connection
    /// options) and makes the words with printf.
    func cpThroughShell(_ script: String) throws -> RunResult {
        try Binary.run("/bin/sh", ["-c", script, "sh", Binary.essh, "cp"] + connection, environment: environment)
    }

    /// Writes `bytes` to `path` with `mode` and modification time `modified` (seconds since 1970).
    static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644, modified: Int? = nil) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Failure("cannot write \(path)")
        }
        chmod(path, mode)
        if let modified { setTime(path, modified) }
    }

    static func setTime(_ path: String, _ modified: Int) {
        var times = [timespec(tv_sec: modified, tv_nsec: 0), timespec(tv_sec: modified, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    /// `count` random bytes (seeded: the same every run).
    static func random(_ count: Int, seed: UInt64 = 42) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var out = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            var word = generator.next()
            for _ in 0..<8 where i < count {
                out[i] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                i += 1
            }
        }
        return out
    }

    /// The file's bytes (nil: missing). `path` may hold any bytes.
    static func read(_ path: [UInt8]) -> [UInt8]? {
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }

    static func read(_ path: String) -> [UInt8]? { read(Array(path.utf8)) }

    /// Whether the file at `path` holds exactly `bytes` (a Bool, so a failed expectation does not print megabytes).
    static func holds(_ path: String, _ bytes: [UInt8]) -> Bool { read(path) == bytes }

    static func holds(_ path: [UInt8], _ bytes: [UInt8]) -> Bool { read(path) == bytes }

    /// Mode bits and modification time, or nil when missing.
    static func stat(_ path: [UInt8]) -> (mode: mode_t, modified: Int, kind: mode_t)? {
        var st = Glibc.stat()
        let ok = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &st) == 0 }
        }
        return ok ? (st.st_mode & 0o7777, st.st_mtim.tv_sec, st.st_mode & S_IFMT) : nil
    }

    static func stat(_ path: String) -> (mode: mode_t, modified: Int, kind: mode_t)? { stat(Array(path.utf8)) }

    /// Names in `folder` (bytes; without . and ..).
    static func names(_ folder: String) -> [[UInt8]] {
        guard let d = opendir(folder) else { return [] }
        defer { closedir(d) }
        var out: [[UInt8]] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name != Array(".".utf8) && name != Array("..".utf8) { out.append(name) }
        }
        return out.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// JSON lines of stdout as objects.
    static func jsonLines(_ r: RunResult) -> [[String: Any]] {
        r.out.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}
