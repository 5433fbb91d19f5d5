import Basics
import Foundation

/// A pipe a thread writes a byte to so that another thread, blocked in poll() on the read end, wakes up: the one
/// self-pipe of the code base (cancelling a connection, waking the interface loop, a shell's signals). Both ends are
/// close-on-exec from creation (`CloseOnExec.pipe`) and non-blocking, so a full pipe never blocks a writer (it
/// already means "wake up") and draining never blocks the reader. The descriptors close when the object goes.
///
/// Sendable and checked by the compiler: it holds only two immutable descriptor numbers, and write(2)/read(2) on them
/// are safe from any thread.
public final class SelfPipe: Sendable {
    /// The end to poll for POLLIN beside the other descriptors of a loop (read it only through `drain`).
    public let readDescriptor: Int32
    /// The end `wake` writes to. Exposed for signal handlers, which cannot reach an object (they capture no context)
    /// and may only make async-signal-safe calls: they keep this number in a global and call write(2) on it
    /// themselves. Everyone else calls `wake`.
    public let writeDescriptor: Int32

    /// Why a pipe could not be made: strerror's text (`Too many open files`).
    public struct Failure: UserFacingError, Sendable, Equatable {
        /// The errno pipe2 gave.
        public let code: Int32
        /// strerror's text for `code`.
        public var reason: String { String(cString: strerror(code)) }
        /// The sentence (callers usually say what the pipe was for).
        public var message: String { "Cannot open a pipe: \(reason)." }
    }

    /// Opens the pipe; throws when no descriptor is left.
    public init() throws(Failure) {
        guard let fds = CloseOnExec.pipe() else { throw Failure(code: errno) }
        for fd in [fds.read, fds.write] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readDescriptor = fds.read
        writeDescriptor = fds.write
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Makes the read end readable by writing `byte` (the shell's signals write the signal's number). A full pipe
    /// loses nothing: the reader has not drained yet and will wake anyway.
    public func wake(_ byte: UInt8 = 1) {
        var byte = byte
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads everything written so far and returns it, oldest first; empty when nothing was.
    @discardableResult
    public func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(readDescriptor, &buffer, buffer.count)
            if n > 0 {
                bytes += buffer[0..<n]
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }
}
