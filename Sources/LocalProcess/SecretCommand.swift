import Basics
import Foundation

/// Runs a program that prints a secret (`pass show servers/db1`, `secret-tool lookup …`, the vault's
/// `vault.passphrase_command`) the one way eSSH does: its words as argv, no shell; stdin /dev/null; stdout read
/// through a pipe up to `outputLimit` bytes; stderr to /dev/null (a program that echoes its secret there must not
/// reach a terminal or a log); killed when it outlives the timeout. The secret is the output with one trailing
/// newline removed. Failures say what happened (not found, exit status, timeout, no output) and never quote the
/// output.
public enum SecretCommand {
    /// Seconds a command may take before it is killed.
    public static let defaultTimeout: TimeInterval = 10
    /// Bytes of output kept at most; a longer output is refused (a secret is short; a command printing a file is
    /// not one).
    public static let outputLimit = 64 * 1024

    /// Why a command gave no secret: a sentence naming the program, never its output.
    public struct Failure: UserFacingError, Sendable, Equatable {
        /// What went wrong.
        public enum Kind: Sendable, Equatable {
            case notFound, couldNotStart, exited(Int32), signalled(Int32), timedOut, emptyOutput, tooLong
        }
        public let kind: Kind
        public let message: String
    }

    /// The secret `words` (program and arguments) prints. `path` is searched for a program named without a `/`;
    /// `environment` nil passes ours (the program may need $HOME, $GNUPGHOME, $DBUS_SESSION_BUS_ADDRESS…).
    public static func run(_ words: [String], timeout: TimeInterval = defaultTimeout,
                           environment: [String: String]? = nil,
                           searchPath: String? = ProcessInfo.processInfo.environment["PATH"])
        throws(Failure) -> String
    {
        guard let name = words.first, !name.isEmpty else {
            throw Failure(kind: .notFound, message: "The secret command is empty.")
        }
        guard let program = locate(name, searchPath: searchPath) else {
            throw Failure(kind: .notFound, message: notFoundMessage(name))
        }
        guard let pipe = CloseOnExec.pipe() else {
            throw Failure(kind: .couldNotStart, message: "Could not run \(name): no pipe (\(errnoText())).")
        }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(program, Array(words.dropFirst()), environment: environment,
                                         stdin: devNull >= 0 ? devNull : nil, stdout: pipe.write,
                                         stderr: devNull >= 0 ? devNull : nil, closeOtherDescriptors: true,
                                         newSession: true)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw Failure(kind: .couldNotStart, message: "Could not run \(name): \(error.reason).")
        }
        close(pipe.write)
        let deadline = Date().addingTimeInterval(timeout)
        var output: [UInt8] = []
        var tooLong = false
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                timedOut = true
                break
            }
            var poller = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000, 1000)) + 1)
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            let n = chunk.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
            switch n {
            case 0: break reading
            case ..<0 where errno == EINTR || errno == EAGAIN: continue
            case ..<0: break reading
            default:
                if output.count + n > outputLimit {
                    tooLong = true
                    break reading
                }
                output.append(contentsOf: chunk[0..<n])
            }
        }
        close(pipe.read)
        for index in chunk.indices { chunk[index] = 0 }
        defer { for index in output.indices { output[index] = 0 } }
        if timedOut || tooLong {
            kill(-pid, SIGKILL)  // its own session: whatever it started goes too
            kill(pid, SIGKILL)
        }
        let status = ChildProcess.wait(pid, timeout: max(deadline.timeIntervalSinceNow, 0.5))
        if timedOut || status == nil {
            throw Failure(kind: .timedOut, message: """
                \(name) gave no answer within \(DurationText.text(timeout, .number)) s and was stopped.
                """)
        }
        if tooLong {
            throw Failure(kind: .tooLong, message: """
                \(name) printed more than \(outputLimit / 1024) KiB; a secret command prints only the secret.
                """)
        }
        switch status {
        case .exited(0)?: break
        case .exited(let code)?:
            throw Failure(kind: .exited(code), message: "\(name) exited with status \(code) and gave no secret.")
        case .signalled(let signal)?:
            throw Failure(kind: .signalled(signal), message: "\(name) was killed by signal \(signal).")
        case nil: break
        }
        if output.last == UInt8(ascii: "\n") { output.removeLast() }
        if output.last == UInt8(ascii: "\r") { output.removeLast() }
        guard !output.isEmpty else {
            throw Failure(kind: .emptyOutput, message: "\(name) printed nothing: there is no secret to use.")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The program file `name` stands for: itself when it holds a `/` (it must be absolute), else the first
    /// executable file of that name in `searchPath`'s folders; nil when there is none.
    public static func locate(_ name: String, searchPath: String?) -> String? {
        if name.contains("/") {
            return name.hasPrefix("/") && isExecutableFile(name) ? name : nil
        }
        for folder in (searchPath ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Why `name` cannot be run: a sentence saying what to write instead.
    public static func notFoundMessage(_ name: String) -> String {
        if name.contains("/") && !name.hasPrefix("/") {
            return "'\(name)' is a relative path; give an absolute one."
        }
        if name.contains("/") {
            return "\(name) does not exist or is not executable."
        }
        return "'\(name)' is not on PATH; give its absolute path."
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
