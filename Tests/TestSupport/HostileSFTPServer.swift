import Foundation
import LocalProcess

/// A real SSH server on 127.0.0.1 whose SFTP answers a test scripts (issue 27): names as raw bytes (`/`, `..`, NUL,
/// empty, 300 bytes), symlinks anywhere, a name listed twice, a folder holding itself forever, attributes that lie,
/// requests that fail. It is `Tests/Harness/hostile-sftp.py` (paramiko's SSH transport and an SFTP v3 answerer of
/// its own) run from the private virtual environment `make test` makes in `.test-venv`. Any user logs in with any
/// password or any key (`clientKey` is one); `knownHostsFile` trusts its host key. Every request it received is a
/// line of `requests` (`OPENDIR /home/hostile/tree`, `READ tree/f offset=0 length=32768`; names escaped by
/// `logged`). `stop()` ends it; so does the end of the test process (the script exits when its stdin closes).
///
///     let server = try HostileSFTPServer(.init([
///         .folder("tree", [.file("ok.txt", "hello\n"), .file("../escape", "x"), .symlink("link", to: "/etc"),
///                          .folder("link", [.file("f", "f")]), .loop("loop")]),
///     ]))
///     defer { server.stop() }
public final class HostileSFTPServer: @unchecked Sendable {
    public let host = "127.0.0.1"
    public let port: Int
    /// A known_hosts file holding `knownHostsLine` only.
    public let knownHostsFile: String
    /// `[127.0.0.1]:PORT ssh-ed25519 AAAA…`
    public let knownHostsLine: String
    /// An ed25519 private key without passphrase (the server takes any key: this one is at hand).
    public let clientKey: String
    /// One line per request received (see `requests`).
    public let requestLogPath: String
    /// The script's stderr (paramiko's complaints, a Python traceback).
    public let errorLogPath: String
    /// The scenario's home folder: what realpath(".") answers and where relative paths start.
    public let home: [UInt8]
    private let pid: pid_t
    private let stdinWriter: Int32
    private let dir: TempDir
    private let lock = NSLock()
    private var stopped = false

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    // MARK: The scenario

    /// Name bytes: a string literal (UTF-8) or any bytes (`.bytes([0x61, 0x00, 0x62])`).
    public struct Name: Hashable, Sendable, ExpressibleByStringLiteral {
        public var bytes: [UInt8]
        public init(_ bytes: [UInt8]) { self.bytes = bytes }
        public init(_ text: String) { bytes = Array(text.utf8) }
        public init(stringLiteral text: String) { bytes = Array(text.utf8) }
        public static func bytes(_ bytes: [UInt8]) -> Name { Name(bytes) }
    }

    /// What an SFTP status answer says (SSH_FX_*).
    public enum Status: String, Sendable {
        case eof, noSuchFile = "no_such_file", permissionDenied = "permission_denied", failure,
             badMessage = "bad_message", opUnsupported = "op_unsupported"
    }

    /// Requests that can be made to fail on an entry (`stat` covers STAT and FSTAT; LSTAT is `lstat`).
    public enum Operation: String, Sendable, CaseIterable {
        case stat, lstat, open, opendir, readdir, read, readlink, realpath, close
    }

    /// Attributes to answer instead of the truth. A field left nil keeps the true value; a field in `omitted` is
    /// left out of the answer altogether (`.uid` or `.gid` drop both, `.atime` or `.mtime` both times).
    public struct Attributes: Sendable {
        public enum Field: String, Sendable { case size, uid, gid, perm, atime, mtime }
        public var size: UInt64?
        public var uid: UInt32?
        public var gid: UInt32?
        /// The whole st_mode, type bits too (`0o040755` says folder whatever the entry is).
        public var perm: UInt32?
        public var atime: UInt32?
        public var mtime: UInt32?
        public var omitted: Set<Field>

        public init(size: UInt64? = nil, uid: UInt32? = nil, gid: UInt32? = nil, perm: UInt32? = nil,
                    atime: UInt32? = nil, mtime: UInt32? = nil, omitting omitted: Set<Field> = []) {
            self.size = size
            self.uid = uid
            self.gid = gid
            self.perm = perm
            self.atime = atime
            self.mtime = mtime
            self.omitted = omitted
        }

        var json: [String: Any] {
            var out: [String: Any] = [:]
            let values: [(Field, UInt64?)] = [(.size, size), (.uid, uid.map(UInt64.init)), (.gid, gid.map(UInt64.init)),
                                              (.perm, perm.map(UInt64.init)), (.atime, atime.map(UInt64.init)),
                                              (.mtime, mtime.map(UInt64.init))]
            for (field, value) in values { if let value { out[field.rawValue] = value } }
            for field in omitted { out[field.rawValue] = NSNull() }
            return out
        }
    }

    /// One name of a folder. Build with `.file`, `.folder`, `.loop`, `.symlink`, `.special`, then adjust with the
    /// modifiers (`lying(_:)`, `failing(_:with:)`, …) or the properties.
    public struct Entry: Sendable {
        public enum Content: Sendable {
            case bytes([UInt8])
            /// `size` bytes of `pattern` repeated, made as they are read (a GiB costs nothing).
            case filled(size: UInt64, pattern: [UInt8])
        }
        public enum Special: String, Sendable { case fifo, socket, chardev, blockdev }
        public enum Kind: Sendable {
            case file(Content)
            /// `loops`: the folder also holds itself under its own name (listed after `entries`), so
            /// `loop/loop/loop/…` are all this folder, each at a path of its own.
            case folder([Entry], loops: Bool)
            case symlink(target: [UInt8])
            case special(Special)
        }

        public var name: Name
        public var kind: Kind
        /// Permission bits (the type bits follow `kind`); nil: 644, folders 755, links 777.
        public var mode: UInt32?
        public var mtime: UInt32?
        /// Said by every answer about this entry (STAT, LSTAT, FSTAT, READDIR) instead of the truth.
        public var attributes: Attributes?
        /// Said by READDIR only (after `attributes`).
        public var listedAttributes: Attributes?
        /// What REALPATH answers for this entry, whatever path reached it; nil: the path, resolved.
        public var realPath: [UInt8]?
        /// False: listed, but no path finds it. (When a name is listed twice, a path finds the last of them.)
        public var findable = true
        public var failures: [Operation: Status] = [:]
        /// A `.read` failure only from this offset on; the reads before it succeed.
        public var failReadsFrom: UInt64 = 0
        /// At most this many bytes in one answer to a read (short reads).
        public var readChunk: Int?
        /// The whole `ls -l` line READDIR sends (eSSH reads the owner from it).
        public var longName: [UInt8]?

        public init(name: Name, kind: Kind) {
            self.name = name
            self.kind = kind
        }

        public static func file(_ name: Name, _ text: String = "") -> Entry {
            Entry(name: name, kind: .file(.bytes(Array(text.utf8))))
        }
        public static func file(_ name: Name, bytes: [UInt8]) -> Entry { Entry(name: name, kind: .file(.bytes(bytes))) }
        public static func file(_ name: Name, size: UInt64, fill: [UInt8] = Array("abcdefgh".utf8)) -> Entry {
            Entry(name: name, kind: .file(.filled(size: size, pattern: fill)))
        }
        public static func folder(_ name: Name, _ entries: [Entry] = []) -> Entry {
            Entry(name: name, kind: .folder(entries, loops: false))
        }
        /// A folder that holds itself (and `entries`); `realPath`: what REALPATH answers at every depth (nil:
        /// the plain path, a new one each level).
        public static func loop(_ name: Name, _ entries: [Entry] = [], realPath: Name? = nil) -> Entry {
            var e = Entry(name: name, kind: .folder(entries, loops: true))
            e.realPath = realPath?.bytes
            return e
        }
        /// `target` as the link holds it: absolute (from "/"), relative to the link's folder, dangling, anything.
        public static func symlink(_ name: Name, to target: Name) -> Entry {
            Entry(name: name, kind: .symlink(target: target.bytes))
        }
        public static func special(_ name: Name, _ kind: Special) -> Entry { Entry(name: name, kind: .special(kind)) }

        public func lying(_ attributes: Attributes) -> Entry { with { $0.attributes = attributes } }
        public func listed(as attributes: Attributes) -> Entry { with { $0.listedAttributes = attributes } }
        public func failing(_ operation: Operation, with status: Status = .permissionDenied) -> Entry {
            with { $0.failures[operation] = status }
        }
        public func failingReads(from offset: UInt64, with status: Status = .failure) -> Entry {
            with {
                $0.failures[.read] = status
                $0.failReadsFrom = offset
            }
        }
        public func realPath(_ path: Name) -> Entry { with { $0.realPath = path.bytes } }
        public func unfindable() -> Entry { with { $0.findable = false } }
        public func mode(_ mode: UInt32) -> Entry { with { $0.mode = mode } }
        public func readChunk(_ bytes: Int) -> Entry { with { $0.readChunk = bytes } }

        private func with(_ change: (inout Entry) -> Void) -> Entry {
            var copy = self
            change(&copy)
            return copy
        }

        var json: [String: Any] {
            var out: [String: Any] = ["name_b64": Data(name.bytes).base64EncodedString()]
            switch kind {
            case .file(.bytes(let bytes)):
                out["type"] = "file"
                out["base64"] = Data(bytes).base64EncodedString()
            case .file(.filled(let size, let pattern)):
                out["type"] = "file"
                out["size"] = size
                out["fill_b64"] = Data(pattern.isEmpty ? [0] : pattern).base64EncodedString()
            case .folder(let entries, let loops):
                out["type"] = "dir"
                out["entries"] = entries.map(\.json)
                out["loop"] = loops
            case .symlink(let target):
                out["type"] = "symlink"
                out["target_b64"] = Data(target).base64EncodedString()
            case .special(let special):
                out["type"] = special.rawValue
            }
            if let mode { out["mode"] = mode }
            if let mtime { out["mtime"] = mtime }
            if let attributes { out["attrs"] = attributes.json }
            if let listedAttributes { out["list_attrs"] = listedAttributes.json }
            if let realPath { out["realpath_b64"] = Data(realPath).base64EncodedString() }
            if !findable { out["lookup"] = false }
            if !failures.isEmpty {
                out["fail"] = Dictionary(uniqueKeysWithValues: failures.map { ($0.key.rawValue, $0.value.rawValue) })
                out["fail_read_from"] = failReadsFrom
            }
            if let readChunk { out["read_chunk"] = readChunk }
            if let longName { out["longname_b64"] = Data(longName).base64EncodedString() }
            return out
        }
    }

    /// The whole file system the server shows: `home` (its parents exist, holding only the way down) and what it
    /// holds.
    public struct Scenario: Sendable {
        /// Absolute: realpath(".") answers it and relative paths start there.
        public var home: Name
        public var entries: [Entry]
        /// False: opening for write, mkdir, remove, rename and setstat are refused (permission denied); true: they
        /// work, in memory.
        public var writable = false
        /// Listings start with "." and "..", as real servers' do.
        public var listsDots = true
        /// Names in one READDIR answer.
        public var namesPerReply = 100
        /// At most this many bytes in one answer to any read.
        public var maxRead: Int?
        /// Extensions the VERSION answer advertises (and the server then serves): `posix-rename@openssh.com`,
        /// `statvfs@openssh.com`, `fsync@openssh.com`. None by default: every EXTENDED request is unsupported.
        public var extensions: [String] = []

        public init(home: Name = "/home/hostile", _ entries: [Entry]) {
            self.home = home
            self.entries = entries
        }

        var json: [String: Any] {
            var out: [String: Any] = [
                "home_b64": Data(home.bytes).base64EncodedString(), "entries": entries.map(\.json),
                "writable": writable, "dots": listsDots, "names_per_reply": namesPerReply, "extensions": extensions,
            ]
            if let maxRead { out["max_read"] = maxRead }
            return out
        }
    }

    // MARK: Running it

    /// The Python of the private virtual environment: `ESSH_TEST_PYTHON`, else `<repo>/.test-venv/bin/python`.
    public static var python: String {
        ProcessInfo.processInfo.environment["ESSH_TEST_PYTHON"] ?? (RepoPaths.root + "/.test-venv/bin/python")
    }

    public static var script: String { RepoPaths.root + "/Tests/Harness/hostile-sftp.py" }

    /// Starts the server with `scenario` and waits (at most `timeout` seconds) until it says it listens.
    public init(_ scenario: Scenario, timeout: TimeInterval = 20) throws {
        let python = Self.python
        guard access(python, X_OK) == 0 else {
            throw Failure(description: """
                The hostile SFTP server needs paramiko in a private virtual environment, and \(python) is missing: \
                run `make test-venv` (`make test` makes it too).
                """)
        }
        let dir = try TempDir()
        let scenarioPath = dir.file("scenario.json")
        let data = try JSONSerialization.data(withJSONObject: scenario.json, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: scenarioPath))
        requestLogPath = dir.file("requests.log")
        errorLogPath = dir.file("stderr.log")
        knownHostsFile = dir.file("known_hosts")
        clientKey = dir.file("id_ed25519")
        home = scenario.home.bytes
        _ = FileManager.default.createFile(atPath: requestLogPath, contents: Data())

        let keygen = try Spawn.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "hostile-client",
                                                           "-f", clientKey])
        guard keygen.status == 0 else {
            dir.cleanup()
            throw Failure(description: "ssh-keygen could not make a client key: \(keygen.err)")
        }
        let errors = open(errorLogPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard errors >= 0, let input = CloseOnExec.pipe(), let output = CloseOnExec.pipe() else {
            if errors >= 0 { close(errors) }
            dir.cleanup()
            throw Failure(description: "could not make the hostile server's pipes: errno \(errno)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(python, [Self.script, "--scenario", scenarioPath, "--keys", dir.file("hostkeys"),
                                                  "--log", requestLogPath],
                                         environment: environment, stdin: input.read, stdout: output.write,
                                         stderr: errors, closeOtherDescriptors: true, newSession: true)
        } catch {
            [errors, input.read, input.write, output.read, output.write].forEach { close($0) }
            dir.cleanup()
            throw Failure(description: "could not start \(python) \(Self.script): \(error.reason)")
        }
        [errors, input.read, output.write].forEach { close($0) }
        defer { close(output.read) }
        self.pid = pid
        self.stdinWriter = input.write
        self.dir = dir

        // The one READY line, within the deadline; an early exit says why from the script's stderr.
        let deadline = Date().addingTimeInterval(timeout)
        var line: [UInt8] = []
        var ready: String?
        while ready == nil {
            let left = deadline.timeIntervalSinceNow
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                close(input.write)
                let why = (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? ""
                dir.cleanup()
                throw Failure(description: "the hostile SFTP server stopped before listening: \(why)")
            }
            if left <= 0 { break }
            var poller = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
            let polled = poll(&poller, 1, Int32(min(left, 0.2) * 1000) + 1)
            guard polled > 0 else { continue }
            var byte: UInt8 = 0
            let n = read(output.read, &byte, 1)
            if n == 1 {
                if byte == 0x0A { ready = String(decoding: line, as: UTF8.self) } else { line.append(byte) }
            } else if n == 0 {
                // stdout closed before READY: the script is ending; stop it and say why.
                let why = (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? ""
                Self.end(pid, stdinWriter: input.write, dir: dir)
                throw Failure(description: "the hostile SFTP server stopped before listening: \(why)")
            }
        }
        guard let ready else {
            let why = (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? ""
            Self.end(pid, stdinWriter: input.write, dir: dir)
            throw Failure(description: "the hostile SFTP server did not say READY within \(Int(timeout)) s "
                          + "(stdout so far: \(String(decoding: line, as: UTF8.self)); stderr: \(why))")
        }
        let words = ready.split(separator: " ", maxSplits: 2)
        guard words.count == 3, words[0] == "READY", let port = Int(words[1]) else {
            Self.end(pid, stdinWriter: input.write, dir: dir)
            throw Failure(description: "the hostile SFTP server's first line is not READY <port> <key line>: \(ready)")
        }
        self.port = port
        knownHostsLine = String(words[2])
        try (knownHostsLine + "\n").write(toFile: knownHostsFile, atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    /// Ends the server (its stdin closed, then SIGTERM, SIGKILL after 5 s) and removes its folder. Safe twice.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        Self.end(pid, stdinWriter: stdinWriter, dir: dir)
    }

    private static func end(_ pid: pid_t, stdinWriter: Int32, dir: TempDir) {
        close(stdinWriter)
        kill(pid, SIGTERM)
        _ = ChildProcess.wait(pid, timeout: 5)  // kills (SIGKILL) and reaps when the time is up
        dir.cleanup()
    }

    /// The requests received so far, one a line, in order: `INIT 3`, `REALPATH .`, `OPENDIR tree`,
    /// `READDIR tree`, `STAT tree/ok.txt`, `OPEN tree/ok.txt flags=0x1`, `READ tree/ok.txt offset=0 length=N`,
    /// `CLOSE tree/ok.txt`, `READLINK tree/link`, also `AUTH publickey user=U ssh-ed25519`, `SUBSYSTEM sftp`,
    /// `EXEC <command>` (refused: no command runs there). Paths as the client sent them, escaped by `logged`.
    public var requests: [String] {
        let text = (try? String(contentsOfFile: requestLogPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The script's stderr so far.
    public var errors: String { (try? String(contentsOfFile: errorLogPath, encoding: .utf8)) ?? "" }

    /// Bytes as the request log writes them: 0x21-0x7e as themselves except `\`, doubled; any other byte (space,
    /// NUL, newline, non-ASCII) as `\xNN`.
    public static func logged(_ bytes: [UInt8]) -> String {
        var out = ""
        for b in bytes {
            if b == 0x5C {
                out += "\\\\"
            } else if (0x21...0x7E).contains(b) {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += String(format: "\\x%02x", b)
            }
        }
        return out
    }

    /// `home` + "/" + `relative`, as bytes.
    public func path(_ relative: Name) -> [UInt8] { home + [0x2F] + relative.bytes }
}
