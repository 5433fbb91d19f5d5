import Glibc
import LocalProcess
import TUIKit

/// The self-pipe the UI loop polls beside the keyboard: other threads call `wake`, and the SIGWINCH handler writes a
/// byte to `writeFD` itself to report a resize. A full pipe already means "wake up", so a failed write loses nothing.
final class PipeWaker: TerminalWaker {
    private let pipe: SelfPipe
    /// The end the loop polls.
    var readFD: Int32 { pipe.readDescriptor }
    /// The raw write end, for `TerminalRestorer`'s signal handler: a handler cannot reach this object and may only
    /// call async-signal-safe functions, so it keeps the number and calls write(2) on it directly. The descriptor
    /// stays open as long as the waker (the terminal) lives.
    var writeFD: Int32 { pipe.writeDescriptor }

    init() throws {
        do throws(SelfPipe.Failure) {
            pipe = try SelfPipe()
        } catch {
            throw CursesError(.system, "pipe: \(error.reason)")
        }
    }

    func wake() { pipe.wake(0x77) }

    /// Empties the pipe.
    func drain() { pipe.drain() }
}
