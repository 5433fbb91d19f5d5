import Foundation

/// The system's mail transfer agent through `sendmail -t -i`: recipients come from the message's To header (`-t`),
/// and a line holding only "." does not end the message (`-i`). The message is written to an unlinked private
/// temporary file that becomes sendmail's stdin, and its stdout and stderr go to another, so neither side can
/// block the other; the program is started with posix_spawn and waited for with waitpid (Foundation's Process
/// hung in `waitUntilExit` on programs that leave a process behind).
public struct Sendmail: MailTransport {
    /// The default program.
    public static let defaultPath = "/usr/sbin/sendmail"

    /// The sendmail program's absolute path.
    public var path: String
    /// Seconds to wait for sendmail before stopping it.
    public var timeout: TimeInterval

    /// A transport through the program at `path`.
    public init(path: String = Sendmail.defaultPath, timeout: TimeInterval = 60) {
        self.path = path
        self.timeout = timeout
    }

    /// Runs `path -t -i` with `message` on stdin; throws `sendmailMissing` when the program is not there or cannot
    /// run, `sendmailFailed` (with its stderr) when it exits non-zero, is killed or takes longer than `timeout`.
    public func send(_ message: [UInt8]) throws(MailError) {
        try checkProgram()
        let input = try Self.privateFile(holding: message)
        defer { close(input) }
        let output = try Self.privateFile(holding: [])
        defer { close(output) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // Nothing else of ours (SSH sockets, the database) may live on in sendmail or in what it leaves running
        // (dma delivers from a background process). glibc ignores a close of a descriptor closed meanwhile.
        for fd in Self.openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        // Worker threads may block signals (the UI does); sendmail must start as it would from a shell, and in a
        // session of its own so it can never read from or write to the person's terminal.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID, a glibc macro Swift cannot see
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | setsid))
        let words: [String] = [path, "-t", "-i"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard rc == 0 else {
            throw MailError(.sendmailMissing, String(cString: strerror(rc)), """
                Could not start the sendmail program \(path): \(String(cString: strerror(rc))). \
                Install a mail transfer agent (e.g. apt install dma) or set mail.sendmail to one that works.
                """)
        }
        let status = try wait(for: pid, output: output)
        guard status != 0 else { return }
        let said = Self.contents(of: output).trimmingCharacters(in: .whitespacesAndNewlines)
        let how = status >= 128 ? "was killed by signal \(status - 128)" : "exited with status \(status)"
        throw MailError(.sendmailFailed, said, """
            sendmail (\(path)) \(how)\(said.isEmpty ? "" : ": " + said). \
            Check the recipients and the mail system (e.g. its log), then retry.
            """)
    }

    /// The program must exist, be a file and be executable, so "missing" is told apart from "failed".
    private func checkProgram() throws(MailError) {
        let fix = "Install a mail transfer agent (e.g. apt install dma) or set mail.sendmail to the right path."
        guard path.hasPrefix("/") else {
            throw MailError(.sendmailMissing, "", "The sendmail path \(path) is not absolute. " + fix)
        }
        var st = stat()
        guard stat(path, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            throw MailError(.sendmailMissing, reason, "There is no sendmail program at \(path) (\(reason)). " + fix)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG, access(path, X_OK) == 0 else {
            throw MailError(.sendmailMissing, "", "\(path) is not an executable program. " + fix)
        }
    }

    /// Waits for the child; its exit status, or 128+N when signal N killed it. Kills it after the timeout.
    private func wait(for pid: pid_t, output: Int32) throws(MailError) -> Int32 {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var delay: useconds_t = 1_000
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR {
                throw MailError(.sendmailFailed, String(cString: strerror(errno)), "Lost track of sendmail (\(path)).")
            }
            if Date() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let said = Self.contents(of: output).trimmingCharacters(in: .whitespacesAndNewlines)
                throw MailError(.sendmailFailed, said, """
                    sendmail (\(path)) did not finish within \(Int(timeout)) s and was stopped. \
                    Check the mail system, then retry.
                    """)
            }
            usleep(delay)
            delay = min(delay * 2, 50_000)
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// An unlinked temporary file only this process can read, holding `bytes`, positioned at its start.
    private static func privateFile(holding bytes: [UInt8]) throws(MailError) -> Int32 {
        var template = Array((NSTemporaryDirectory() + "essh-mail-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw MailError(.io, reason, "Could not create a temporary file for sendmail: \(reason).")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                throw MailError(.io, reason, "Could not write the message to a temporary file: \(reason).")
            }
            offset += n
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    /// This process's open file descriptors, from /proc/self/fd.
    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }

    /// What sendmail wrote (at most the first 4 KiB), as text.
    private static func contents(of fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = pread(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }
}
