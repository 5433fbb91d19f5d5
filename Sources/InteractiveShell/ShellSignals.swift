import Glibc

// Signal handlers cannot capture context: the pipe they write to lives here, set while a shell runs.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// Signals while a shell runs, through a self-pipe: the handlers only write the signal's number to the pipe
/// (async-signal-safe), and the shell's loop, which polls the read end beside the keyboard and the socket, does
/// the work — a resize (SIGWINCH) is sent to the server, a terminating signal (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT from outside: the keyboard sends none in raw mode) ends the shell in order. The handlers that were
/// there before come back on `stop()`.
final class ShellSignals {
    static let resize = SIGWINCH
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The end the loop polls.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private var previous: [Int32: sigaction] = [:]

    init() throws(ShellError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw ShellError("No pipe for the shell's signals (\(String(cString: strerror(errno)))).")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
        signalPipeWrite = writeDescriptor
        for signal in [Self.resize] + Self.terminating {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
    }

    /// Puts the previous handlers back and closes the pipe; safe to call twice.
    func stop() {
        guard !previous.isEmpty else { return }
        for (signal, var action) in previous { sigaction(signal, &action, nil) }
        previous = [:]
        signalPipeWrite = -1
        close(readDescriptor)
        close(writeDescriptor)
    }

    deinit { stop() }

    /// The signals that arrived since the last call, oldest first (repeats kept: two resizes are two bytes).
    func drain() -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readDescriptor, &buffer, buffer.count)
            if n <= 0 { break }
            signals += buffer[0..<n].map(Int32.init)
        }
        return signals
    }
}

private func forwardSignal(_ signal: Int32) {
    guard signalPipeWrite >= 0 else { return }
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWrite, &byte, 1)
    errno = saved
}
