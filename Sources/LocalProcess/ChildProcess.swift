import Foundation

/// Starting local programs (sendmail, a pipe's command, test helpers) the one way eSSH does it: posix_spawn with the
/// hygiene a child needs — an empty signal mask and default handlers (our threads block signals and ignore some, and
/// ignored signals survive exec), optionally none of our other descriptors (SSH sockets, the database) and a session
/// of its own. Rejected: Foundation's `Process` (its `waitUntilExit` spins the run loop and hangs on programs that
/// leave a daemon behind) and swift-subprocess (async only; the UI thread must wait synchronously during a handoff).
public enum ChildProcess {
    /// How a child ended.
    public enum Status: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The shell's convention: the exit status, or 128+N when signal N killed it.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let code): return code
            case .signalled(let signal): return 128 + signal
            }
        }

        init(waitStatus status: Int32) {
            self = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        }
    }

    /// Starts `path` with `arguments`. `stdin`, `stdout`, `stderr` are descriptors of ours to give the child as 0, 1
    /// and 2 (nil: it shares ours). `environment` nil passes ours. Throws the errno of a failed start.
    public static func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                             stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil,
                             closeOtherDescriptors: Bool = false, newSession: Bool = false) throws(SpawnFailure) -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            if let fd { posix_spawn_file_actions_adddup2(&actions, fd, target) }
        }
        // After the dup2s above. closefrom also closes what another thread opens meanwhile; the walk of
        // /proc/self/fd is only for a C library without it (glibc ignores a close of a descriptor closed meanwhile).
        if closeOtherDescriptors && !CloseOnExec.addCloseFrom(&actions, 3) {
            for fd in openDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= 0x80 }  // POSIX_SPAWN_SETSID, a glibc macro Swift cannot see
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        var rc: Int32 = 0
        // ETXTBSY: a program written a moment ago can still be open for writing in a child another thread is just
        // forking (a Linux race, golang/go#22315); it passes within milliseconds, so try again a few times.
        for attempt in 0..<6 {
            if attempt > 0 { usleep(useconds_t(5_000 * attempt)) }
            if let envp {
                rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            } else {
                rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
            }
            if rc != ETXTBSY { break }
        }
        guard rc == 0 else { throw SpawnFailure(path: path, code: rc) }
        return pid
    }

    /// Waits for `pid` to end, however long it takes. (`.exited(255)` if it is not our child to wait for.)
    public static func wait(_ pid: pid_t) -> Status {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(255) }
        }
        return Status(waitStatus: status)
    }

    /// Waits at most `timeout` seconds for `pid` to end; when the time is up, calls `beforeKill` (while the process
    /// still runs, for a look at it), kills it (SIGKILL) and returns nil.
    public static func wait(_ pid: pid_t, timeout: TimeInterval, beforeKill: () -> Void = {}) -> Status? {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var delay: useconds_t = 1_000
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return Status(waitStatus: status) }
            if r < 0 && errno != EINTR { return .exited(255) }
            if Date() > deadline {
                beforeKill()
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return nil
            }
            usleep(delay)
            delay = min(delay * 2, 50_000)
        }
    }

    /// This process's open file descriptors, from /proc/self/fd.
    static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }
}
