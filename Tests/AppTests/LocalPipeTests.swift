import Foundation
import Testing
import TestSupport
@testable import App
@testable import AppCore

/// `|` in a session: the output goes into a real local command through /bin/sh.
@Suite("LocalPipe")
struct LocalPipeTests {
    @Test func theBytesReachTheCommandsStdinUnchanged() throws {
        let dir = try TempDir()
        let out = dir.path + "/piped"
        let input: [UInt8] = Array("héllo\n".utf8) + [0xFF, 0x00, 0x1B] + Array("[2J\nend".utf8)
        let result = LocalPipe.run(command: "cat > '\(out)'", input: input)
        #expect(result == .finished(.exited(0)))
        #expect(FileManager.default.contents(atPath: out).map(Array.init) == input)
    }

    @Test func theExitStatusAndASignalAreReported() {
        #expect(LocalPipe.run(command: "exit 3", input: []) == .finished(.exited(3)))
        #expect(LocalPipe.run(command: "kill -TERM $$", input: []) == .finished(.signalled(SIGTERM)))
        #expect(LocalPipe.run(command: "no-such-command-essh", input: []) == .finished(.exited(127)))
    }

    @Test func aCommandThatStopsReadingEarlyEndsNormally() throws {
        let dir = try TempDir()
        let out = dir.path + "/first"
        // 8 MB is far more than a pipe holds: a writer on the UI thread would block forever on it.
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        let result = LocalPipe.run(command: "head -c 5 > '\(out)'", input: big)
        #expect(result == .finished(.exited(0)))
        #expect(FileManager.default.contents(atPath: out) == Data("xxxxx".utf8))
    }

    @Test func aProgramStartedMeanwhileDoesNotHoldThePipe() throws {
        // A program another thread starts while the output is being written must not inherit the pipe: holding its
        // write end, it would keep the command (`wc -l`) from ever seeing end-of-file.
        let dir = try TempDir()
        defer { dir.cleanup() }
        let seen = dir.file("pipe"), go = dir.file("go")
        // More than a pipe holds, so the write end stays open while the command waits for "go".
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let command = """
            readlink /proc/self/fd/0 > '\(seen).tmp'; mv '\(seen).tmp' '\(seen)'
            while [ ! -e '\(go)' ]; do sleep 0.02; done
            wc -c > /dev/null
            """
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: LocalCommandResult?
        Thread {
            result = LocalPipe.run(command: command, input: big)
            finished.signal()
        }.start()
        let pipe = try InheritedDescriptors.waitForFile(seen)
        let inherited = try InheritedDescriptors.ofAProgramStartedNow()
        FileManager.default.createFile(atPath: go, contents: nil)
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(pipe.hasPrefix("pipe:"))
        #expect(!inherited.contains(pipe), "\(inherited)")
        #expect(result == .finished(.exited(0)))
    }

    @Test func theChildGetsDefaultSignalHandlersEvenWhenWeIgnoreThem() {
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        #expect(LocalPipe.run(command: "kill -INT $$", input: []) == .finished(.signalled(SIGINT)))
    }

    @Test func aMissingShellIsSaidPlainly() {
        let result = LocalPipe.run(command: "true", input: [], shell: "/nonexistent/sh")
        guard case .failedToStart(let reason) = result else {
            Issue.record("expected failedToStart, got \(result)")
            return
        }
        #expect(reason.contains("/nonexistent/sh"))
        #expect(reason.contains("No such file"))
    }

    @Test func theStatusLineSaysHowThePipeEnded() {
        var state = AppState(size: .init(width: 80, height: 24), now: Date(), localUser: "me")
        let effects = Update.update(&state, .handedBack(.piped(command: "wc -l", result: .finished(.exited(0)))))
        #expect(effects.isEmpty)
        #expect(state.notice == "Piped the output into `wc -l`: exit 0.")
    }
}
