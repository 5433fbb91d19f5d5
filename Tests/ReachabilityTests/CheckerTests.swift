import Basics
import Foundation
import Reachability
import Testing
import TestSupport

/// Every status against real sockets on loopback.
@Suite struct CheckerTests {
    private func checkOne(_ host: String, _ port: Int, timeout: Double = 1) throws -> CheckOutcome {
        let outcomes = try Checker(options: .init(timeout: timeout)).check([CheckTarget(host: host, port: port)])
        #expect(outcomes.count == 1)
        return try #require(outcomes.first)
    }

    @Test func aListenerSendingAnSSHBannerIsOnline() throws {
        let listener = try LoopbackListener(.sends("SSH-2.0-TestServer_1.0"))
        defer { listener.close() }
        let outcome = try checkOne("127.0.0.1", listener.port)
        #expect(outcome.status == .online)
        #expect(outcome.banner == "SSH-2.0-TestServer_1.0")
        #expect(outcome.latencyMs != nil)
        #expect(outcome.error == nil)
        #expect(outcome.address == "127.0.0.1")
    }

    @Test func anOpenPortThatNeverSpeaksIsNotSSHAfterTheTimeout() throws {
        let listener = try LoopbackListener(.silent)
        defer { listener.close() }
        let outcome = try checkOne("127.0.0.1", listener.port, timeout: 0.5)
        #expect(outcome.status == .notSSH)
        #expect(outcome.latencyMs != nil)
        #expect(outcome.error?.contains("no SSH banner") == true)
    }

    @Test func aPortSendingAnotherProtocolIsNotSSH() throws {
        let listener = try LoopbackListener(.sends("220 mail.example ESMTP ready"))
        defer { listener.close() }
        let outcome = try checkOne("127.0.0.1", listener.port)
        #expect(outcome.status == .notSSH)
        #expect(outcome.banner == "220 mail.example ESMTP ready")
    }

    /// RFC 4253 §4.2: a server may send other lines before `SSH-`; OpenSSH accepts them and so does the check.
    @Test func linesBeforeTheIdentificationAreOnline() throws {
        let ssh = try LoopbackListener(.sends("SSH-2.0-Behind_1.0"))
        defer { ssh.close() }
        let relay = try PreambleRelay(preamble: "Welcome\r\nAuthorised use only\r\n", targetPort: ssh.port)
        defer { relay.close() }
        let outcome = try checkOne("127.0.0.1", relay.port)
        #expect(outcome.status == .online, "\(outcome)")
        #expect(outcome.banner == "SSH-2.0-Behind_1.0")
    }

    @Test func aClosedPortIsRefused() throws {
        let outcome = try checkOne("127.0.0.1", try LoopbackListener.closedPort())
        #expect(outcome.status == .refused)
        #expect(outcome.error == "connection refused")
    }

    @Test func aListenerThatNeverAnswersTimesOut() throws {
        let listener = try LoopbackListener(.backlogFull)
        defer { listener.close() }
        let outcome = try checkOne("127.0.0.1", listener.port, timeout: 0.5)
        #expect(outcome.status == .timeout)
        #expect(outcome.latencyMs == nil)
        #expect(outcome.error == "no answer within 0.5 s")
    }

    @Test func anUnresolvableNameIsADNSError() throws {
        let outcome = try checkOne("no-such-host.invalid", 22)
        #expect(outcome.status == .dnsError)
        #expect(outcome.error?.isEmpty == false)
    }

    @Test func anEmptyHostIsADNSErrorNotACrash() throws {
        #expect(try checkOne("", 22).status == .dnsError)
    }

    @Test func aNameResolvesAndEveryAddressIsTried() throws {
        // localhost may resolve to ::1 and 127.0.0.1; only 127.0.0.1 listens, so the best result must win.
        let listener = try LoopbackListener(.sends("SSH-2.0-Both"))
        defer { listener.close() }
        let outcome = try checkOne("localhost", listener.port)
        #expect(outcome.status == .online)
        #expect(outcome.banner == "SSH-2.0-Both")
    }

    @Test func manyTargetsComeBackInOrderWithOneResultEachUnderATightSocketLimit() throws {
        let banner = try LoopbackListener(.sends("SSH-2.0-Many"))
        let silent = try LoopbackListener(.backlogFull)
        defer { banner.close(); silent.close() }
        let closed = try LoopbackListener.closedPort()
        var targets: [CheckTarget] = []
        for i in 0..<60 {
            targets.append(CheckTarget(host: "127.0.0.1", port: [banner.port, closed, silent.port][i % 3]))
        }
        var seen = 0
        let outcomes = try Checker(options: .init(timeout: 0.3, concurrency: 7)).check(targets) { _ in seen += 1 }
        #expect(seen == 60)
        #expect(outcomes.map(\.index) == Array(0..<60))
        for outcome in outcomes {
            let expected: CheckStatus = [.online, .refused, .timeout][outcome.index % 3]
            #expect(outcome.status == expected, "target \(outcome.index)")
        }
    }

    @Test func invalidOptionsAreRefusedWithAReason() {
        #expect(throws: ReachabilityError.self) { try Checker(options: .init(timeout: 0)) }
        #expect(throws: ReachabilityError.self) { try Checker(options: .init(timeout: 1, concurrency: 0)) }
    }

    @Test func theRealSSHDOfTheHarnessIsOnlineWithOpenSSHsBanner() throws {
        let servers = try TestServers.require()
        let outcome = try checkOne(servers.host, servers.port, timeout: 3)
        #expect(outcome.status == .online)
        #expect(outcome.banner?.hasPrefix("SSH-2.0-OpenSSH") == true)
    }

    @Test func theSoftFileLimitIsRaisedToTheHardOne() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let raised = FileDescriptorLimit.raiseToHard()
        #expect(raised == FileDescriptorLimit.current)
        #expect(UInt64(raised) >= UInt64(limit.rlim_cur))
    }
}
