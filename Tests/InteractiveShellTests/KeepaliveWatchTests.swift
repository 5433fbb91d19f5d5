import Testing
@testable import InteractiveShell

@Suite struct KeepaliveWatchTests {
    @Test func aServerSilentForFourIntervalsIsLostAfterThreeMissedKeepalives() {
        let w = KeepaliveWatch(interval: 15, maxMissed: 3, now: 100)
        #expect(!w.isLost(at: 159.9))
        #expect(w.isLost(at: 160))
        #expect(w.lostReason.contains("3 keepalives"))
        #expect(w.lostReason.contains("60 s"))
    }

    @Test func hearingFromTheServerStartsTheCountAgain() {
        var w = KeepaliveWatch(interval: 15, maxMissed: 3, now: 0)
        w.heard(at: 50)
        #expect(!w.isLost(at: 100))
        #expect(w.isLost(at: 110))
        // Late news from before does not move the clock back.
        w.heard(at: 10)
        #expect(!w.isLost(at: 100))
    }

    @Test func withoutKeepalivesSilenceNeverCounts() {
        let w = KeepaliveWatch(interval: 0, maxMissed: 3, now: 0)
        #expect(!w.isLost(at: 1_000_000))
        #expect(w.secondsUntilCheck(at: 0) == 3600)
    }

    @Test func theLoopWakesTwicePerIntervalAndNotAfterTheDeadline() {
        let w = KeepaliveWatch(interval: 10, maxMissed: 1, now: 0)
        #expect(w.secondsUntilCheck(at: 0) == 5)
        #expect(w.secondsUntilCheck(at: 18) == 2)
        #expect(w.secondsUntilCheck(at: 25) == 0.05)
    }
}
