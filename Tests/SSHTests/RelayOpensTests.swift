import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SSH

/// What the relay's opens answered, with when.
private final class Answers: Sendable {
    let items = Mutex<[String: (result: Result<Int, SSHError>, after: Double)]>([:])
    let started = Date()
    func put(_ key: String, _ result: Result<Int, SSHError>) {
        let after = Date().timeIntervalSince(started)
        items.withLock { $0[key] = (result, after) }
    }
    func waitFor(_ count: Int, within seconds: Double) -> [String: (result: Result<Int, SSHError>, after: Double)] {
        let deadline = Date() + seconds
        while Date() < deadline, items.withLock({ $0.count }) < count { usleep(20_000) }
        return items.withLock { $0 }
    }
}

/// Opens through one relay in flight side by side (libssh2 patch 0003): a silent target holds only its own open.
@Suite(.serialized) struct RelayOpensTests {
    private func pair() -> [Int32] {
        var pair: [Int32] = [-1, -1]
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        return pair
    }

    @Test func theLibraryBuiltHereKeepsOpensSideBySide() {
        // make builds libssh2 with eSSH's patches on this machine (Debian 12); the tests below rely on it.
        #expect(ChannelRelay.opensSideBySide)
    }

    @Test func opensToAGoodTargetSucceedWhileTwentySilentOnesWaitThenAllTimeOutTogether() throws {
        let s = try TestServers.require()
        let bastion = try SSHSession.connect(hop(s, s.jump.b1, name: "bastion"))
        let relay = try ChannelRelay(session: bastion, name: "bastion")
        defer { relay.stop() }
        let answers = Answers()
        var ours: [Int32] = []
        defer { for fd in ours { close(fd) } }
        for i in 0..<20 {
            let p = pair()
            ours.append(p[0])
            relay.open(to: s.jump.t1.host, port: s.jump.t1SilentPort, descriptor: p[1], timeout: 3) {
                answers.put("silent\(i)", $0)
            }
        }
        var good: [Int32] = []
        for i in 0..<5 {
            let p = pair()
            ours.append(p[0])
            good.append(p[0])
            relay.open(to: s.jump.t1.host, port: s.jump.t1.port, descriptor: p[1], timeout: 10) {
                answers.put("good\(i)", $0)
            }
        }
        let all = answers.waitFor(25, within: 15)
        let goods = (0..<5).compactMap { all["good\($0)"] }
        let silents = (0..<20).compactMap { all["silent\($0)"] }
        #expect(goods.count == 5 && silents.count == 20, "\(all.count) answers")
        // The good ones were answered while every silent one was still waiting (one at a time, they would have
        // waited behind 20 timeouts).
        let firstSilent = silents.map(\.after).min() ?? 0
        for g in goods {
            if case .failure(let e) = g.result { Issue.record("good open failed: \(e.situation)") }
            #expect(g.after < firstSilent, "good after \(g.after) s, first silent answer after \(firstSilent) s")
        }
        for silent in silents {
            guard case .failure(let e) = silent.result else {
                Issue.record("a silent target opened")
                continue
            }
            #expect(e.kind == .timedOut)
            #expect(e.situation.hasPrefix("bastion did not get a connection to "
                                          + "\(s.jump.t1.host):\(s.jump.t1SilentPort) within 3 s"), "\(e.situation)")
        }
        // Each silent open ran out its own 3 s beside the others (not 20 × 3 s behind each other).
        #expect(silents.allSatisfy { $0.after < 6 }, "\(silents.map(\.after))")
        // The good links carry t1's banner.
        for fd in good {
            var buffer = [UInt8](repeating: 0, count: 64)
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&p, 1, 5000) == 1)
            let n = read(fd, &buffer, buffer.count)
            #expect(n > 4 && String(decoding: buffer[0..<max(0, n)], as: UTF8.self).hasPrefix("SSH-2.0-"))
        }
        // The relay still opens after all that.
        var o = hop(s, s.jump.t1)
        o.connectTimeout = 10
        let session = try SSHSession.connect(o, through: relay)
        #expect(String(decoding: try session.capture("echo after").stdout, as: UTF8.self) == "after\n")
    }

    @Test func aCancelledOpenAmongOthersInFlightAnswersAtOnceAndTheOthersGoOn() throws {
        let s = try TestServers.require()
        let bastion = try SSHSession.connect(hop(s, s.jump.b1, name: "bastion"))
        let relay = try ChannelRelay(session: bastion, name: "bastion")
        defer { relay.stop() }
        let answers = Answers()
        var ours: [Int32] = []
        defer { for fd in ours { close(fd) } }
        for i in 0..<5 {
            let p = pair()
            ours.append(p[0])
            relay.open(to: s.jump.t1.host, port: s.jump.t1SilentPort, descriptor: p[1], timeout: 2) {
                answers.put("silent\(i)", $0)
            }
        }
        let cancel = try Cancellation()
        let p = pair()
        ours.append(p[0])
        relay.open(to: s.jump.t1.host, port: s.jump.t1SilentPort, descriptor: p[1], timeout: 30, cancel: cancel) {
            answers.put("cancelled", $0)
        }
        usleep(300_000)
        cancel.cancel()
        let first = answers.waitFor(1, within: 1.5)
        #expect(first.keys.sorted() == ["cancelled"])
        if case .failure(let e)? = first["cancelled"]?.result { #expect(e.kind == .cancelled) } else {
            Issue.record("the cancelled open was not answered as cancelled")
        }
        var byte: UInt8 = 0
        #expect(read(p[0], &byte, 1) == 0)
        let all = answers.waitFor(6, within: 6)
        #expect((0..<5).allSatisfy { i in
            if case .failure(let e)? = all["silent\(i)"]?.result { return e.kind == .timedOut }
            return false
        })
    }

    @Test func anOpenGivenUpWhoseConfirmationComesLateIsClosedOnTheServerAndTheRelayGoesOn() throws {
        let s = try TestServers.require()
        let slow = try SlowAcceptor(s)
        defer { slow.stop() }
        let bastion = try SSHSession.connect(hop(s, s.jump.b1, name: "bastion"))
        let relay = try ChannelRelay(session: bastion, name: "bastion")
        defer { relay.stop() }
        let p = pair()
        defer { close(p[0]) }
        let started = Date()
        let e = sshError { try relay.open(to: s.jump.t1.host, port: slow.port, descriptor: p[1], timeout: 0.5) }
        #expect(e?.kind == .timedOut)
        #expect(Date().timeIntervalSince(started) < 1.5)
        // Past libssh2's own read timeout for an open given up (1 s): the bastion's connect succeeds on its next
        // SYN (about 3 s after the first), and the confirmation comes to an open nobody waits for.
        usleep(2_000_000)
        slow.release()
        var log: [String] = []
        let deadline = Date() + 12
        while Date() < deadline {
            log = slow.log
            if log.contains("closed") { break }
            usleep(100_000)
        }
        #expect(log.first == "accepted", "\(log)")
        // sshd closed its connection to the target: eSSH answered the late confirmation with a close.
        #expect(log.contains("closed"), "\(log)")
        #expect(relay.openLinkCount == 0)
        var o = hop(s, s.jump.t1)
        o.connectTimeout = 10
        let session = try SSHSession.connect(o, through: relay)
        #expect(String(decoding: try session.capture("echo still").stdout, as: UTF8.self) == "still\n")
        #expect(relay.failure == nil)
    }
}
