import Glibc
import LocalProcess

// Signal handlers cannot capture context: the pipe's raw write end lives here, set while a shell runs. The handler
// calls write(2) on the number itself (async-signal-safe) rather than `SelfPipe.wake`, which it could not reach.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// Signals while a shell runs, through a self-pipe: the handlers only write the signal's number to the pipe
/// (async-signal-safe), and the shell's loop, which polls the read end beside the keyboard and the socket, does
/// the work — a resize (SIGWINCH) is sent to the server, a terminating signal (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT from outside: the keyboard sends none in raw mode) ends the shell in order. The handlers that were
/// there before come back on `stop()`.
final class ShellSignals {
    static let resize = SIGWINCH
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The end the loop polls (valid until `stop()`).
    let readDescriptor: Int32
    /// Closed (set to nil) by `stop()`, after the handlers that write to it are gone.
    private var pipe: SelfPipe?
    private var previous: [Int32: sigaction] = [:]

    init() throws(ShellError) {
        let pipe: SelfPipe
        do throws(SelfPipe.Failure) { pipe = try SelfPipe() } catch {
            throw ShellError("No pipe for the shell's signals (\(error.reason)).")
        }
        self.pipe = pipe
        readDescriptor = pipe.readDescriptor
        signalPipeWrite = pipe.writeDescriptor
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
        pipe = nil
    }

    deinit { stop() }

    /// The signals that arrived since the last call, oldest first (repeats kept: two resizes are two bytes).
    func drain() -> [Int32] {
        (pipe?.drain() ?? []).map(Int32.init)
    }
}

private func forwardSignal(_ signal: Int32) {
    guard signalPipeWrite >= 0 else { return }
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWrite, &byte, 1)
    errno = saved
}
