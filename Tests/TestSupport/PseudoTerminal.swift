import Foundation

/// A program run in a new session whose controlling terminal is a fresh pseudo-terminal (what /dev/tty opens), for
/// programs that read passphrases only from there (Debian's `age`, eSSH's no-echo prompts). The test answers each
/// prompt as it appears and gets everything the program wrote to the terminal.
public enum PseudoTerminal {
    /// Runs `path` with `arguments` (and `environment` added to ours); answers each prompt (a substring of what the
    /// program writes) in order with a line; returns its exit status and the terminal's transcript.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                           answers: [(prompt: String, line: String)], timeout: TimeInterval = 60)
        throws -> (status: Int32, transcript: String)
    {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.EIO) }
        defer { close(master) }
        guard let name = ttyname(slave) else { close(slave); throw POSIXError(.EIO) }
        let slavePath = String(cString: name)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, slave)
        // Opened in the child after setsid and without O_NOCTTY: the pty becomes its controlling terminal, /dev/tty.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(slave)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }

        var transcript: [UInt8] = []
        var pending = answers[...]
        var answeredUpTo = 0
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var exited = false
        while Date() < deadline {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(master, &buffer, buffer.count)
                if n > 0 { transcript += buffer[0..<n] }
            }
            if let next = pending.first,
               String(decoding: transcript[answeredUpTo...], as: UTF8.self).contains(next.prompt) {
                answeredUpTo = transcript.count
                let bytes = Array((next.line + "\r").utf8)
                _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                pending = pending.dropFirst()
            }
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
        }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        // What the program wrote just before it ended.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 0) > 0 {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            transcript += buffer[0..<n]
        }
        let code: Int32 = !exited ? -1 : (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, String(decoding: transcript, as: UTF8.self))
    }
}
