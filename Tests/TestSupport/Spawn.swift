import Foundation

/// Runs a short helper program (tmux, pgrep) with posix_spawn and waitpid, its output going to temporary files.
/// Unlike a pipe, a file does not keep the caller waiting when the program leaves a daemon behind that holds
/// its output open (`tmux new-session` starts the tmux server that way).
public enum Spawn {
    /// Runs `path ARGS` to its end (killed after `timeout` seconds). stdin is `stdin` (or /dev/null); the
    /// environment is ours with `environment` added (a nil value removes a variable).
    public static func run(_ path: String, _ args: [String], stdin: Data? = nil,
                           environment: [String: String?] = [:], timeout: TimeInterval = 20) throws -> RunResult {
        let base = NSTemporaryDirectory() + "essh-spawn-\(getpid())-\(UUID().uuidString.prefix(8))"
        let outPath = base + ".out", errPath = base + ".err", inPath = base + ".in"
        defer {
            unlink(outPath)
            unlink(errPath)
            unlink(inPath)
        }
        if let stdin { FileManager.default.createFile(atPath: inPath, contents: stdin, attributes: [.posixPermissions: 0o600]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin == nil ? "/dev/null" : inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The test runner's threads block most signals; a child must start with a clean mask and default
        // handlers, as it would from a shell, or SIGTERM and SIGHUP would never reach the program under test.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // A new session: no controlling terminal, as under CI, so what the program does never depends on who ran the tests.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | 0x80 /* POSIX_SPAWN_SETSID, a glibc macro Swift cannot see */))
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw TmuxSession.Failure(description: "Could not start \(path): \(String(cString: strerror(rc)))")
        }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(5_000)
        }
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return RunResult(status: exit, stdout: out, stderr: err)
    }
}
