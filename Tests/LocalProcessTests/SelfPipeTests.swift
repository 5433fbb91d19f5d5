import Foundation
import LocalProcess
import Testing

@Suite struct SelfPipeTests {
    @Test func wakeMakesTheReadEndReadableAndDrainEmptiesIt() throws {
        let pipe = try SelfPipe()
        var fds = [pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 1, 0) == 0)
        pipe.wake()
        pipe.wake(28)
        #expect(poll(&fds, 1, 0) == 1)
        #expect(pipe.drain() == [1, 28])
        fds[0].revents = 0
        #expect(poll(&fds, 1, 0) == 0)
        #expect(pipe.drain() == [])
    }

    @Test func bothEndsAreNonBlockingAndCloseOnExec() throws {
        let pipe = try SelfPipe()
        for fd in [pipe.readDescriptor, pipe.writeDescriptor] {
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        }
    }

    @Test func aFullPipeDoesNotBlockTheWriter() throws {
        let pipe = try SelfPipe()
        for _ in 0..<100_000 { pipe.wake() }
        #expect(pipe.drain().count >= 4096)
    }
}
