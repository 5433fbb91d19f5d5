import Foundation
import LocalProcess

/// Runs a short helper program (tmux, pgrep) with posix_spawn and waitpid, its output going to temporary files.
/// Unlike a pipe, a file does not keep the caller waiting when the program leaves a daemon behind that holds
/// its output open (`tmux new-session` starts the tmux server that way).
public enum Spawn {
    /// Starts `path ARGS` in the background (stdin, stdout and stderr on /dev/null, a session of its own, none of
    /// our other descriptors) and returns its pid: the caller stops it (SIGKILL) and reaps it.
    public static func start(_ path: String, _ args: [String]) throws -> pid_t {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        do {
            return try ChildProcess.spawn(path, args, stdin: null, stdout: null, stderr: null,
                                          closeOtherDescriptors: true, newSession: true)
        } catch {
            throw TmuxSession.Failure(description: "Could not start \(path): \(error.reason)")
        }
    }

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
        let input = open(stdin == nil ? "/dev/null" : inPath, O_RDONLY | O_CLOEXEC)
        let output = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errors = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { [input, output, errors].forEach { if $0 >= 0 { close($0) } } }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        // A new session: no controlling terminal, as under CI, so what the program does never depends on who ran
        // the tests. None of the test runner's other descriptors: a long-lived helper (the tmux server) holding a
        // file another test is writing would make running that file fail with "Text file busy". ChildProcess gives it a clean signal mask and default handlers: the test runner's threads block
        // most signals, and SIGTERM or SIGHUP must reach the program under test.
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(path, args, environment: env, stdin: input, stdout: output, stderr: errors,
                                         closeOtherDescriptors: true, newSession: true)
        } catch {
            throw TmuxSession.Failure(description: "Could not start \(path): \(error.reason)")
        }
        let exit = ChildProcess.wait(pid, timeout: timeout)?.shellStatus ?? 128 + SIGKILL
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return RunResult(status: exit, stdout: out, stderr: err)
    }
}
