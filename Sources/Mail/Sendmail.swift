import Foundation
import LocalProcess

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

        // Nothing else of ours (SSH sockets, the database) may live on in sendmail or in what it leaves running
        // (dma delivers from a background process); in a session of its own it can never touch the terminal.
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(path, ["-t", "-i"], stdin: input, stdout: output, stderr: output,
                                         closeOtherDescriptors: true, newSession: true)
        } catch {
            throw MailError(.sendmailMissing, error.reason, """
                Could not start the sendmail program \(path): \(error.reason). \
                Install a mail transfer agent (e.g. apt install dma) or set mail.sendmail to one that works.
                """)
        }
        let how: String
        switch try wait(for: pid, output: output) {
        case .exited(0): return
        case .exited(let code): how = "exited with status \(code)"
        case .signalled(let signal): how = "was killed by signal \(signal)"
        }
        let said = Self.contents(of: output).trimmingCharacters(in: .whitespacesAndNewlines)
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

    /// Waits for the child; how it ended. Kills it after the timeout.
    private func wait(for pid: pid_t, output: Int32) throws(MailError) -> ChildProcess.Status {
        guard let status = ChildProcess.wait(pid, timeout: timeout) else {
            let said = Self.contents(of: output).trimmingCharacters(in: .whitespacesAndNewlines)
            throw MailError(.sendmailFailed, said, """
                sendmail (\(path)) did not finish within \(Int(timeout)) s and was stopped. \
                Check the mail system, then retry.
                """)
        }
        return status
    }

    /// An unlinked temporary file only this process can read, holding `bytes`, positioned at its start.
    private static func privateFile(holding bytes: [UInt8]) throws(MailError) -> Int32 {
        var template = Array((NSTemporaryDirectory() + "essh-mail-XXXXXX").utf8CString)
        // Close-on-exec, so no program started elsewhere meanwhile keeps the message open.
        let fd = CloseOnExec.temporaryFile(&template)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw MailError(.io, reason, "Could not create a temporary file for sendmail: \(reason).")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MailError(.io, reason, "Could not write the message to a temporary file: \(reason).")
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    /// What sendmail wrote (at most the first 4 KiB), as text.
    private static func contents(of fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = pread(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }
}
