import Basics
import Glibc
@testable import Reachability
import Testing

/// The per-target decisions of a check run, driven by hand: no sockets, no clock.
@Suite struct TargetTrackerTests {
    private let seconds: UInt64 = 1_000_000_000
    private let targets = [CheckTarget(host: "dual.example", port: 22), CheckTarget(host: "other.example", port: 22)]

    private func outcome(_ index: Int, _ status: CheckStatus, _ address: String) -> CheckOutcome {
        CheckOutcome(index: index, target: targets[index], status: status, address: address)
    }

    @Test func theMostInformativeAttemptWinsOnceNoneIsLeft() {
        var tracker = TargetTracker(targets: targets, timeout: 2)
        tracker.resolved(0)
        tracker.reserve(0, attempts: 2)
        let issued0 = tracker.issued(0)
        #expect(issued0)
        tracker.watching(0, fd: 10, serial: 1, started: 0)
        // The second connect is issued but not yet watched: the target waits for it.
        let first = tracker.attemptEnded(fd: 10, outcome(0, .timeout, "::1"))
        #expect(first == nil)
        let issuedSecond = tracker.issued(0)
        #expect(issuedSecond)
        tracker.watching(0, fd: 11, serial: 2, started: 0)
        let second = tracker.attemptEnded(fd: 11, outcome(0, .refused, "127.0.0.1"))
        #expect(second == TargetTracker.Finished(outcome: outcome(0, .refused, "127.0.0.1"), closing: []))
        #expect(tracker.completed == 1 && !tracker.allDone)
        #expect(tracker.results[0] == outcome(0, .refused, "127.0.0.1"))
    }

    @Test func anOnlineAttemptFinishesAtOnceAndTheOthersAreClosed() {
        var tracker = TargetTracker(targets: targets, timeout: 2)
        tracker.reserve(0, attempts: 3)
        for fd: Int32 in [10, 11, 12] {
            let issued0 = tracker.issued(0)
            #expect(issued0)
            tracker.watching(0, fd: fd, serial: UInt32(fd), started: 0)
        }
        let worse = tracker.attemptEnded(fd: 10, outcome(0, .unreachable, "a"))
        #expect(worse == nil)
        let online = tracker.attemptEnded(fd: 11, outcome(0, .online, "b"))
        #expect(online == TargetTracker.Finished(outcome: outcome(0, .online, "b"), closing: [12]))
        // Late news about a finished target changes nothing, and a connect issued after it is closed by the loop.
        let late = tracker.conclude(0, outcome(0, .refused, "c"))
        #expect(late == nil)
        tracker.reserve(0, attempts: 1)
        let issuedLate = tracker.issued(0)
        #expect(!issuedLate)
    }

    @Test func aWorseOutcomeDoesNotReplaceABetterOne() {
        var tracker = TargetTracker(targets: targets, timeout: 2)
        tracker.reserve(1, attempts: 2)
        _ = tracker.issued(1)
        _ = tracker.issued(1)
        tracker.watching(1, fd: 20, serial: 1, started: 0)
        let notSSH = tracker.conclude(1, outcome(1, .notSSH, "a"))
        #expect(notSSH == nil)
        let dns = tracker.attemptEnded(fd: 20, outcome(1, .dnsError, "b"))
        #expect(dns?.outcome == outcome(1, .notSSH, "a"))
    }

    @Test func deadlinesFallDueInOrderLookupsFirstAndOnlyForUnresolvedTargets() {
        var tracker = TargetTracker(targets: targets, timeout: 2)
        #expect(tracker.nextDeadline() == nil)
        tracker.lookupStarted(0, at: 0)
        tracker.lookupStarted(1, at: 1 * seconds)
        #expect(tracker.nextDeadline() == 2 * seconds)
        tracker.resolved(1)
        tracker.reserve(1, attempts: 1)
        _ = tracker.issued(1)
        tracker.watching(1, fd: 30, serial: 7, started: seconds + seconds / 2)
        let early = tracker.expired(now: 2 * seconds - 1)
        #expect(early.isEmpty)
        let due = tracker.expired(now: 4 * seconds)
        #expect(due == [.lookup(target: 0), .attempt(fd: 30, serial: 7)])
        #expect(tracker.nextDeadline() == nil)
        #expect(tracker.lookupTimedOut(0).error == "no answer from the name server within 2 s")
        #expect(tracker.lookupTimedOut(0).status == .dnsError)
    }

    @Test func aTimedOutAttemptIsATimeoutOrAnOpenPortWithoutABanner() {
        let tracker = TargetTracker(targets: targets, timeout: 0.5)
        let silent = tracker.attemptTimedOut(0, address: "::1", connectNanos: nil, received: [])
        #expect(silent == CheckOutcome(index: 0, target: targets[0], status: .timeout,
                                       error: "no answer within 0.5 s", address: "::1"))
        let mute = tracker.attemptTimedOut(0, address: "::1", connectNanos: 1_234_567, received: Array("SSH-2".utf8))
        #expect(mute == CheckOutcome(index: 0, target: targets[0], status: .notSSH, latencyMs: 1.23, banner: "SSH-2",
                                     error: "port open, but no SSH banner within 0.5 s", address: "::1"))
    }

    @Test func aFailedConnectIsNamedByItsErrno() {
        let tracker = TargetTracker(targets: targets, timeout: 2)
        #expect(tracker.failure(0, ECONNREFUSED, address: "a").status == .refused)
        #expect(tracker.failure(0, ETIMEDOUT, address: "a").status == .timeout)
        #expect(tracker.failure(0, EHOSTUNREACH, address: "a").status == .unreachable)
        #expect(tracker.failure(0, ECONNREFUSED, address: "a").error == "connection refused")
    }

    @Test func theBannerDecidesOnceALineIsWhole() {
        let tracker = TargetTracker(targets: targets, timeout: 2)
        let partial = tracker.banner(0, received: Array("SSH-2.0-Op".utf8), ended: false, resetText: nil,
                                     connectNanos: 0, address: "a")
        #expect(partial == nil)
        let ssh = tracker.banner(0, received: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8), ended: false, resetText: nil,
                                 connectNanos: 2_000_000, address: "a")
        #expect(ssh?.status == .online && ssh?.banner == "SSH-2.0-OpenSSH_9.2" && ssh?.latencyMs == 2)
        let closed = tracker.banner(0, received: [], ended: true, resetText: "connection reset by peer",
                                    connectNanos: 0, address: "a")
        #expect(closed?.status == .notSSH)
        #expect(closed?.error
            == "port open, but the connection closed without an SSH banner (connection reset by peer)")
        // Other lines may precede the identification (RFC 4253 §4.2): judged once the server closes.
        let open = tracker.banner(0, received: Array("HTTP/1.1 400 Bad Request\r\n".utf8), ended: false,
                                  resetText: nil, connectNanos: 0, address: "a")
        #expect(open == nil)
        let http = tracker.banner(0, received: Array("HTTP/1.1 400 Bad Request\r\n".utf8), ended: true,
                                  resetText: nil, connectNanos: 0, address: "a")
        #expect(http?.status == .notSSH && http?.banner == "HTTP/1.1 400 Bad Request"
                && http?.error == "port open, but the server sent text that is not an SSH banner")
    }
}
