import Foundation

/// Cancels a connect or a command from any thread. It owns a pipe whose read end the I/O loops poll beside the
/// socket, so a cancel wakes a waiting loop at once instead of at its next timeout.
public final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var fds: [Int32] = [-1, -1]

    /// Throws when the pipe cannot be made (no descriptor left): a token whose cancel could wake nothing would let
    /// a cancelled or timed-out connect wait its full network timeout.
    public init() throws(SSHError) {
        guard pipe(&fds) == 0 else {
            let why = String(cString: strerror(errno))
            fds = [-1, -1]
            throw SSHError(.io, "pipe: \(why)",
                           "Cannot open the pipe that cancels a connection (\(why)): too many files are open; "
                           + "raise the limit (ulimit -n) or run fewer servers at once.")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC); _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
    }

    deinit { for fd in fds where fd >= 0 { close(fd) } }

    /// Asks whatever runs under this token to stop. Idempotent.
    public func cancel() {
        lock.lock()
        defer { lock.unlock() }
        guard !cancelled else { return }
        cancelled = true
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// The descriptor that becomes readable once cancelled (to poll beside others; never read it).
    public var pollDescriptor: Int32 { fds[0] }
}
