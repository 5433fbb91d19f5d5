import AppCore
import Foundation
import LocalProcess

/// Runs a local shell command with bytes on its stdin, the caller's terminal as its stdout and stderr, and waits
/// for it. The bytes are written from another thread, so a command that stops reading early (`head -1`) ends
/// normally instead of blocking us; the broken pipe is then expected, not an error.
enum LocalPipe {
    static func run(command: String, input: [UInt8], shell: String = "/bin/sh",
                    environment: [String: String] = ProcessInfo.processInfo.environment) -> LocalCommandResult {
        // Close-on-exec: a program started elsewhere meanwhile must not hold the write end (the command would
        // never see end-of-file); the child's stdin is a dup2 of the read end, which is not.
        guard let (readEnd, writeEnd) = CloseOnExec.pipe() else {
            return .failedToStart("Could not create a pipe: \(String(cString: strerror(errno))).")
        }
        // The child keeps the terminal (0–2 after the dup) and nothing else of ours: not the SSH socket, not the
        // database, not the write end of its own stdin (or it would never see end-of-file).
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(shell, ["-c", command], environment: environment, stdin: readEnd,
                                         closeOtherDescriptors: true)
        } catch {
            close(readEnd)
            close(writeEnd)
            return .failedToStart("Could not start \(shell): \(error.reason).")
        }
        close(readEnd)
        let writer = Thread {
            // A reader that quits early makes write fail with EPIPE; blocked here, the SIGPIPE that comes with it
            // is this thread's and dies with it, even in a process (a test runner) that does not ignore SIGPIPE.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            _ = input.withUnsafeBytes { writeAll(writeEnd, $0) }
            close(writeEnd)
        }
        writer.start()
        return .finished(ChildProcess.wait(pid))
    }
}
