import Foundation
import Testing
import TestSupport
@testable import SSH

@Suite struct ShellChannelTests {
    /// Reads from the shell until `marker` shows up (or 10 s pass).
    func readUntil(_ shell: ShellChannel, _ marker: String) throws -> String {
        var text = ""
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let deadline = Date().addingTimeInterval(10)
        while !text.contains(marker) && Date() < deadline {
            switch try shell.read(into: buffer) {
            case .data(let n): text += String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
            case .nothing: _ = try shell.wait(localDescriptors: [], timeout: 0.5)
            case .endOfFile: return text
            }
        }
        return text
    }

    func send(_ shell: ShellChannel, _ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = try bytes.withUnsafeBytes { try shell.write($0) }
            bytes = bytes.dropFirst(n)
            if n == 0 { usleep(1000) }
        }
    }

    @Test func aShellRunsOnAPTYFollowsResizesAndReportsItsExit() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        let shell = try ShellChannel(session: session, term: "xterm-256color", cols: 100, rows: 30)
        try send(shell, "stty size; echo TERM=$TERM; tty\n")
        let first = try readUntil(shell, "/dev/pts/")
        #expect(first.contains("30 100"))
        #expect(first.contains("TERM=xterm-256color"))
        try shell.resize(cols: 132, rows: 43)
        try send(shell, "stty size\n")
        #expect(try readUntil(shell, "43 132").contains("43 132"))
        try send(shell, "exit 7\n")
        _ = try readUntil(shell, "\u{0}never")
        #expect(shell.close().status == 7)
        // The session outlives its shell.
        #expect(try session.capture("echo ok").stdout == Array("ok\n".utf8))
    }

    /// The channel lives inside its session's lock: once the shell or the whole session is closed, using the
    /// shell is a `disconnected` error, never a call on a channel libssh2 has freed.
    @Test func aClosedShellOrSessionRefusesFurtherUse() throws {
        let s = try TestServers.require()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        let session = try connect(s)
        let shell = try ShellChannel(session: session, term: "xterm", cols: 80, rows: 24)
        _ = shell.close(graceful: false)
        #expect(shell.close() == CommandExit(status: nil, signal: nil), "a second close is a no-op")
        #expect(throws: SSHError.self) { try shell.read(into: buffer) }
        #expect(!shell.hasBufferedData)
        #expect(try session.capture("echo still").stdout == Array("still\n".utf8))

        let orphan = try ShellChannel(session: session, term: "xterm", cols: 80, rows: 24)
        session.disconnect()
        for attempt in [
            { _ = try orphan.read(into: buffer) },
            { _ = try [UInt8(0x78)].withUnsafeBytes { try orphan.write($0) } },
            { try orphan.resize(cols: 100, rows: 30) },
            { _ = try orphan.wait(localDescriptors: [], timeout: 0) },
        ] as [() throws -> Void] {
            #expect { try attempt() } throws: { ($0 as? SSHError)?.kind == .disconnected }
        }
        #expect(orphan.close() == CommandExit(status: nil, signal: nil))
    }
}
