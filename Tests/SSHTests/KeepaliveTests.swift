import Foundation
import Glibc
import Testing
import TestSupport
@testable import SSH

/// An idle session notices at once when the server went away (issue 14 §1: the interface checks every second).
@Suite struct KeepaliveTests {
    /// The local port of the session's socket, which names its sshd processes.
    private func localPort(_ session: SSHSession) -> Int {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(session.fd, $0, &length) }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    @Test func aServerThatClosedTheConnectionIsFoundByTheNextKeepaliveEvenBehindUnreadAnswers() throws {
        let s = try TestServers.require()
        var o = options(s)
        o.keepaliveInterval = 2
        let session = try connect(s, o)
        try session.keepalive()
        // Answers to keepalives wait unread while the session is idle; the close must be seen behind them.
        sleep(3)
        try session.keepalive()
        usleep(300_000)
        let listener = try #require(SSHDConnection.listenerPid(stateDir: s.stateDir))
        let sshd = try #require(SSHDConnection.find(clientPort: localPort(session), port: s.port,
                                                    listenerPid: listener))
        sshd.signal(SIGKILL)
        let deadline = Date().addingTimeInterval(3)
        var error: SSHError?
        while error == nil && Date() < deadline {
            error = sshError { try session.keepalive() }
            if error == nil { usleep(100_000) }
        }
        #expect(error?.kind == .disconnected)
        #expect(error?.message == "The server closed the connection.")
        #expect(sshError { try session.keepalive() }?.kind == .disconnected, "and stays so")
    }

    @Test func aHealthySessionKeepsAnsweringKeepalives() throws {
        let s = try TestServers.require()
        var o = options(s)
        o.keepaliveInterval = 2
        let session = try connect(s, o)
        for _ in 0..<5 {
            try session.keepalive()
            usleep(500_000)
        }
        #expect(try session.capture("echo fine").stdout == Array("fine\n".utf8))
    }
}
