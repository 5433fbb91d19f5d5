import Basics
import CVaultGuard
import Foundation

/// The unlock agent: a process of its own (started by `essh vault unlock` as a hidden subcommand) that holds the
/// unlocked vault key for a while so that commands need not ask the passphrase each run. It receives the key on its
/// standard input (a pipe: never argv or the environment), answers on a Unix socket (`socketPath`, 0600 in a 0700
/// folder) only to processes of its own user (SO_PEERCRED on each connection), is undumpable (no core files, no
/// ptrace by the same user: PR_SET_DUMPABLE 0, RLIMIT_CORE 0), keeps the key in one locked page where the system
/// allows (mlock, MADV_DONTDUMP), and ends — key zeroed, socket removed — after `idle` seconds without a request
/// for the key, on `LOCK`, on SIGTERM, SIGINT or SIGHUP, or within 5 s of its socket being removed (the runtime
/// folder is removed at logout).
///
/// The protocol is one line per connection: `KEY` (the exported key's bytes; restarts the idle time), `STATUS`
/// (`UNLOCKED PID SECONDS-LEFT`), `LOCK` (`OK`, then the agent ends).
public enum VaultAgent {
    /// `$XDG_RUNTIME_DIR/essh/vault.sock`; without XDG_RUNTIME_DIR, `/tmp/essh-UID/vault.sock` (the folder made
    /// 0700 and checked to be the user's own, as tmux and ssh-agent do in /tmp).
    public static func socketPath(environment: [String: String]) -> String {
        if let runtime = XDGDirectories.runtimeDirectory(environment: environment) { return runtime + "/essh/vault.sock" }
        return "/tmp/essh-\(getuid())/vault.sock"
    }

    // MARK: - Client

    /// The agent's status, nil when no agent answers at `socketPath`.
    public static func status(socketPath: String) throws(VaultError) -> (pid: Int, secondsLeft: Int)? {
        guard let reply = try request("STATUS", socketPath: socketPath, replyLimit: 64) else { return nil }
        let words = String(decoding: reply, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 3, words[0] == "UNLOCKED", let pid = Int(words[1]), let left = Int(words[2]) else {
            throw .agent("The vault agent at \(socketPath) answered something unexpected.")
        }
        return (pid, left)
    }

    /// The key the agent holds, nil when no agent answers.
    public static func key(socketPath: String, maxWorkFactor: Int) throws(VaultError) -> AgeKey? {
        guard var bytes = try request("KEY", socketPath: socketPath, replyLimit: AgeKey.exportedSize + 1) else {
            return nil
        }
        defer { Wipe.bytes(&bytes) }
        guard let key = AgeKey(exported: bytes, maxWorkFactor: maxWorkFactor) else {
            throw .agent("The vault agent at \(socketPath) sent something that is not a vault key.")
        }
        return key
    }

    /// Asks the agent to forget the key and end; false when no agent answered.
    public static func lock(socketPath: String) throws(VaultError) -> Bool {
        try request("LOCK", socketPath: socketPath, replyLimit: 8) != nil
    }

    /// One request; nil when nothing listens at the path. The socket and the agent must be this user's.
    static func request(_ line: String, socketPath: String, replyLimit: Int) throws(VaultError) -> [UInt8]? {
        var info = stat()
        guard lstat(socketPath, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else {
            throw .unsafe(path: socketPath, "is not a socket of yours; the vault agent is not asked there.")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .agent("Cannot make a socket: \(String(cString: strerror(errno))).") }
        defer { close(fd) }
        guard var address = unixAddress(socketPath) else { throw .agent("The socket path \(socketPath) is too long.") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }  // a stale socket: no agent
        var peer: UInt32 = 0
        guard essh_vault_peer_uid(fd, &peer) == 0, peer == getuid() else {
            throw .agent("The process at \(socketPath) is not yours; it was not asked for the vault key.")
        }
        setTimeout(fd, seconds: 5)
        let request = Array((line + "\n").utf8)
        guard request.withUnsafeBytes({ writeAllBytes(fd, $0) }) else { return nil }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 128)
        defer { Wipe.bytes(&buffer) }
        while reply.count < replyLimit {
            let n = read(fd, &buffer, min(buffer.count, replyLimit - reply.count))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        return reply
    }

    // MARK: - Server

    /// Why the agent could not start (said on its stdout to `essh vault unlock`, which is waiting for `ready`).
    public struct StartFailure: Error, Sendable {
        /// The sentence.
        public let message: String
    }

    /// Runs the agent: hardens the process, reads the key from `input` (exactly `AgeKey.exportedSize` bytes),
    /// listens at `socketPath`, calls `ready` once it answers, serves until idle, `LOCK` or a signal. Returns when
    /// it has ended cleanly (key zeroed, socket removed); throws before `ready` when it cannot start.
    public static func serve(input: Int32, socketPath: String, idle: TimeInterval, maxWorkFactor: Int,
                             ready: () -> Void) throws(StartFailure)
    {
        // Before the key is in memory: no core file, no ptrace by the same user, no dump of the key's page.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        guard essh_vault_set_undumpable() == 0 else { throw StartFailure(message: "Cannot make the agent undumpable.") }

        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let page = mmap(nil, pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              page != MAP_FAILED
        else { throw StartFailure(message: "Cannot map a page for the key.") }
        _ = mlock(page, pageSize)  // where allowed (RLIMIT_MEMLOCK); the key is never swapped out then
        _ = madvise(page, pageSize, 16)  // MADV_DONTDUMP
        let key = page.bindMemory(to: UInt8.self, capacity: AgeKey.exportedSize)
        func forget() {
            explicit_bzero(page, pageSize)
            munlock(page, pageSize)
            munmap(page, pageSize)
        }

        var got = 0
        while got < AgeKey.exportedSize {
            let n = read(input, key + got, AgeKey.exportedSize - got)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        close(input)
        let valid = got == AgeKey.exportedSize
            && AgeKey(exported: Array(UnsafeBufferPointer(start: key, count: got)), maxWorkFactor: maxWorkFactor) != nil
        guard valid else {
            forget()
            throw StartFailure(message: "The agent did not receive a vault key on its standard input.")
        }

        let listener: Int32
        do {
            listener = try listen(at: socketPath)
        } catch {
            forget()
            throw error
        }
        var socketInfo = stat()
        stat(socketPath, &socketInfo)
        func end() {
            forget()
            // Only our own socket: a later agent may have taken the path over.
            var now = stat()
            if stat(socketPath, &now) == 0 && now.st_ino == socketInfo.st_ino && now.st_dev == socketInfo.st_dev {
                unlink(socketPath)
            }
            close(listener)
        }

        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let signalFD = signalfd(-1, &signals, Int32(SFD_CLOEXEC))
        signal(SIGPIPE, SIG_IGN)
        ready()

        var deadline = Date().addingTimeInterval(idle)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            var polls = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polls, signalFD >= 0 ? 2 : 1, Int32(min(left, 5) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            if polls[1].revents != 0 { break }
            // The socket removed (the runtime folder goes at logout) or taken over: no one can reach this agent.
            var now = stat()
            if stat(socketPath, &now) != 0 || now.st_ino != socketInfo.st_ino || now.st_dev != socketInfo.st_dev {
                break
            }
            guard polls[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listener, nil, nil)  // the agent starts no programs: no close-on-exec needed
            guard client >= 0 else { continue }
            var peer: UInt32 = 0
            guard essh_vault_peer_uid(client, &peer) == 0, peer == getuid() else {
                close(client)
                continue
            }
            setTimeout(client, seconds: 2)
            switch readLine(client) {
            case "KEY":
                _ = writeAllBytes(client, UnsafeRawBufferPointer(start: key, count: AgeKey.exportedSize))
                deadline = Date().addingTimeInterval(idle)
            case "STATUS":
                let reply = "UNLOCKED \(getpid()) \(max(0, Int(deadline.timeIntervalSinceNow.rounded())))\n"
                _ = Array(reply.utf8).withUnsafeBytes { writeAllBytes(client, $0) }
            case "LOCK":
                end()
                _ = Array("OK\n".utf8).withUnsafeBytes { writeAllBytes(client, $0) }
                close(client)
                return
            default: break
            }
            close(client)
        }
        end()
    }

    /// The folder (0700, the user's own) and a listening socket at `path` (0600). A stale socket there (nothing
    /// answers) is removed; a live agent there is a failure.
    static func listen(at path: String) throws(StartFailure) -> Int32 {
        let folder = (path as NSString).deletingLastPathComponent
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw StartFailure(message: "Cannot make the folder \(folder): \(String(cString: strerror(errno))).")
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
            throw StartFailure(message: "\(folder) is not a folder of yours; the vault agent does not listen there.")
        }
        if info.st_mode & 0o077 != 0 && chmod(folder, 0o700) != 0 {
            throw StartFailure(message: "Cannot make \(folder) private (0700).")
        }
        if lstat(path, &info) == 0 {
            if (try? status(socketPath: path)) != nil {
                throw StartFailure(message: "Another vault agent already answers at \(path).")
            }
            unlink(path)
        }
        guard var address = unixAddress(path) else { throw StartFailure(message: "The socket path \(path) is too long.") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StartFailure(message: "Cannot make a socket.") }
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(oldMask)
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StartFailure(message: "Cannot listen at \(path): \(reason).")
        }
        return fd
    }

    static func readLine(_ fd: Int32) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 16 {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == 0x0A { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    static func setTimeout(_ fd: Int32, seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    static func writeAllBytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    static func unixAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}
