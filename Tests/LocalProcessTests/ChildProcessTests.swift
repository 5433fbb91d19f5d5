import Foundation
import LocalProcess
import Testing

/// Real programs started through ChildProcess: descriptors, signals, sessions, waiting.
@Suite("ChildProcess")
struct ChildProcessTests {
    /// A private temporary file, unlinked, positioned at its start.
    private func scratch(_ text: String = "") throws -> Int32 {
        var template = Array((NSTemporaryDirectory() + "essh-lp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(fd >= 0)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = Array(text.utf8).withUnsafeBytes { writeAll(fd, $0) }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    private func contents(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = pread(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    @Test func theGivenDescriptorsBecomeStdinStdoutAndStderr() throws {
        let input = try scratch("hello\n"), output = try scratch(), errors = try scratch()
        defer { [input, output, errors].forEach { close($0) } }
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", "tr a-z A-Z; echo oops >&2; exit 7"],
                                         stdin: input, stdout: output, stderr: errors)
        #expect(ChildProcess.wait(pid) == .exited(7))
        #expect(contents(output) == "HELLO\n")
        #expect(contents(errors) == "oops\n")
    }

    @Test func theChildStartsWithDefaultSignalHandlersAndAnEmptyMask() throws {
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        var blocked = sigset_t(), old = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", "kill -INT $$; sleep 5"])
        #expect(ChildProcess.wait(pid, timeout: 10) == .signalled(SIGINT))
        let output = try scratch()
        defer { close(output) }
        let masked = try ChildProcess.spawn("/bin/sh", ["-c", "grep SigBlk /proc/self/status"], stdout: output)
        #expect(ChildProcess.wait(masked) == .exited(0))
        #expect(contents(output).contains("0000000000000000"))
    }

    @Test func otherDescriptorsAreClosedWhenAsked() throws {
        let kept = open("/dev/null", O_RDONLY)  // not close-on-exec: it would leak without the option
        defer { close(kept) }
        for close in [false, true] {
            let output = try scratch()
            defer { Glibc.close(output) }
            let pid = try ChildProcess.spawn("/bin/sh", ["-c", "test -e /proc/self/fd/\(kept)"], stdout: output,
                                             closeOtherDescriptors: close)
            #expect(ChildProcess.wait(pid) == .exited(close ? 1 : 0))
        }
    }

    @Test func pipesAndTemporaryFilesAreCloseOnExecFromTheStart() throws {
        let pipe = try #require(CloseOnExec.pipe())
        defer { close(pipe.read); close(pipe.write) }
        #expect(fcntl(pipe.read, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.write, F_GETFD) & FD_CLOEXEC != 0)
        var template = Array((NSTemporaryDirectory() + "essh-cloexec-XXXXXX").utf8CString)
        let file = CloseOnExec.temporaryFile(&template)
        try #require(file >= 0)
        defer { close(file); template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        #expect(fcntl(file, F_GETFD) & FD_CLOEXEC != 0)
        #expect(!String(cString: template).hasSuffix("XXXXXX"))
    }

    @Test func aNewSessionHasNoControllingTerminalOfOurs() throws {
        let output = try scratch()
        defer { close(output) }
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", "ps -o sid= -p $$"], stdout: output, newSession: true)
        #expect(ChildProcess.wait(pid) == .exited(0))
        #expect(Int32(contents(output).trimmingCharacters(in: .whitespacesAndNewlines)) == pid)
    }

    @Test func aChildPastItsTimeoutIsKilled() throws {
        let pid = try ChildProcess.spawn("/bin/sleep", ["30"])
        let started = Date()
        #expect(ChildProcess.wait(pid, timeout: 0.2) == nil)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(kill(pid, 0) != 0)  // reaped: no such process any more
    }

    @Test func aMissingProgramSaysWhy() {
        do {
            _ = try ChildProcess.spawn("/nonexistent/prog", [])
            Issue.record("a missing program started")
        } catch {
            #expect(error.path == "/nonexistent/prog")
            #expect(error.code == ENOENT)
            #expect(error.reason == "No such file or directory")
        }
    }

    @Test func shellStatusFollowsTheShellsConvention() {
        #expect(ChildProcess.Status.exited(3).shellStatus == 3)
        #expect(ChildProcess.Status.signalled(SIGTERM).shellStatus == 143)
    }

    @Test func writeAllWritesEverythingAndSaysWhenTheReaderIsGone() throws {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let some = [UInt8](repeating: 7, count: 16384)  // fits in the pipe: no reader needed
        #expect(some.withUnsafeBytes { writeAll(fds[1], $0) })
        var back = [UInt8](repeating: 0, count: some.count)
        #expect(read(fds[0], &back, back.count) == some.count)
        #expect(back == some)
        close(fds[0])
        #expect(!some.withUnsafeBytes { writeAll(fds[1], $0) })
    }
}
