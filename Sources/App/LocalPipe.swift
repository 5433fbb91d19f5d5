import Foundation

/// Runs a local shell command with bytes on its stdin, the caller's terminal as its stdout and stderr, and waits
/// for it. The bytes are written from another thread, so a command that stops reading early (`head -1`) ends
/// normally instead of blocking us; the broken pipe is then expected, not an error.
enum LocalPipe {
    static func run(command: String, input: [UInt8], shell: String = "/bin/sh",
                    environment: [String: String] = ProcessInfo.processInfo.environment) -> LocalCommandResult {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failedToStart("Could not create a pipe: \(errorText(errno)).") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        // eSSH ignores SIGINT, SIGPIPE and others while the terminal is handed over; ignored signals survive exec,
        // so the child starts with default handlers and an empty mask, as from a shell (Ctrl-C stops `less`).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGTERM, SIGHUP, SIGWINCH, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([shell, "-c", command] as [String]).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, shell, &actions, &attributes, argv, envp)
        close(readEnd)
        guard rc == 0 else {
            close(writeEnd)
            return .failedToStart("Could not start \(shell): \(errorText(rc)).")
        }
        let writer = Thread {
            // A reader that quits early makes write fail with EPIPE; blocked here, the SIGPIPE that comes with it
            // is this thread's and dies with it, even in a process (a test runner) that does not ignore SIGPIPE.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            input.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
                }
            }
            close(writeEnd)
        }
        writer.start()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if (status & 0x7F) == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
