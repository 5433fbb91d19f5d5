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
}
