import Foundation
import Testing
import TestSupport
@testable import SSH

@Suite struct ConnectFailureTests {
    @Test func connectionRefused() throws {
        let s = try TestServers.require()
        let e = sshError { _ = try connect(s, options(s, port: 1)) }
        #expect(e?.kind == .refused)
        #expect(e?.message.contains("refused") == true)
    }

    @Test func unresolvableName() throws {
        let s = try TestServers.require()
        var o = options(s)
        o.host = "no-such-host.invalid"
        let e = sshError { _ = try connect(s, o) }
        #expect(e?.kind == .nameNotFound)
        #expect(e?.message.contains("no-such-host.invalid") == true)
    }

    @Test func aListenerThatNeverAnswersTimesOut() throws {
        let s = try TestServers.require()
        let hole = try BlackholeListener()
        var o = options(s, port: hole.port)
        o.connectTimeout = 1
        let started = Date()
        let e = sshError { _ = try connect(s, o) }
        let took = Date().timeIntervalSince(started)
        #expect(e?.kind == .timedOut)
        #expect(took >= 0.9 && took < 5)
    }

    @Test func ipv6LoopbackWorks() throws {
        let s = try TestServers.require()
        try #require(s.hasIPv6, "this machine has no ::1")
        var o = options(s)
        o.host = "::1"
        let session = try connect(s, o)
        #expect(session.address == "::1")
    }

    @Test func aNameWithSeveralAddressesConnects() throws {
        let s = try TestServers.require()
        var o = options(s)
        o.host = "localhost"
        o.hostKeyPolicy = .acceptNew
        let dir = try TempDir()
        defer { dir.cleanup() }
        o.knownHostsFile = dir.file("kh")
        let session = try connect(s, o)
        #expect(["127.0.0.1", "::1"].contains(session.address))
    }

    @Test func cancellingAConnectReturnsAtOnce() throws {
        let s = try TestServers.require()
        let hole = try BlackholeListener()
        var o = options(s, port: hole.port)
        o.connectTimeout = 30
        let cancel = try Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancel.cancel() }
        let started = Date()
        let e = sshError { _ = try SSHSession.connect(o, cancel: cancel) }
        #expect(e?.kind == .cancelled)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aServerThatIsNotSSHIsNamedAsSuch() throws {
        let s = try TestServers.require()
        // A listener that answers with HTTP and closes.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        listen(fd, 4)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        defer { close(fd) }
        DispatchQueue.global().async {
            let c = accept(fd, nil, nil)
            _ = "HTTP/1.0 400 Bad Request\r\n\r\n".withCString { write(c, $0, strlen($0)) }
            usleep(100_000)
            close(c)
        }
        var o = options(s, port: Int(UInt16(bigEndian: addr.sin_port)))
        o.connectTimeout = 3
        let e = sshError { _ = try connect(s, o) }
        #expect(e != nil)
        #expect(e?.kind == .notSSH || e?.kind == .disconnected)
    }
}
