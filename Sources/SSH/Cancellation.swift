import Foundation
import LocalProcess
import Synchronization

/// Cancels a connect or a command from any thread. It owns a self-pipe whose read end the I/O loops poll beside the
/// socket, so a cancel wakes a waiting loop at once instead of at its next timeout.
public final class Cancellation: Sendable {
    private let cancelled = Mutex(false)
    private let pipe: SelfPipe

    /// Throws when the pipe cannot be made (no descriptor left): a token whose cancel could wake nothing would let
    /// a cancelled or timed-out connect wait its full network timeout.
    public init() throws(SSHError) {
        do throws(SelfPipe.Failure) {
            pipe = try SelfPipe()
        } catch {
            throw SSHError(.io, "pipe: \(error.reason)",
                           "Cannot open the pipe that cancels a connection (\(error.reason)): too many files are open; "
                           + "raise the limit (ulimit -n) or run fewer servers at once.")
        }
    }

    /// Asks whatever runs under this token to stop. Idempotent: the pipe gets one byte, however many cancels.
    public func cancel() {
        cancelled.withLock { cancelled in
            guard !cancelled else { return }
            cancelled = true
            pipe.wake()
        }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelled.withLock { $0 } }

    /// The descriptor that becomes readable once cancelled (to poll beside others; never read it).
    public var pollDescriptor: Int32 { pipe.readDescriptor }
}
