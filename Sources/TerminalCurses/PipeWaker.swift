import Glibc
import TUIKit

/// The self-pipe the UI loop polls beside the keyboard: other threads write a byte to wake it, and the
/// SIGWINCH handler writes one to report a resize. Both ends are non-blocking; a full pipe already means
/// "wake up", so a failed write loses nothing.
final class PipeWaker: TerminalWaker {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw CursesError(.system, "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    func wake() {
        var byte: UInt8 = 0x77
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 256)
        while read(readFD, &scratch, scratch.count) > 0 {}
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}
