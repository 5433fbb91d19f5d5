import Synchronization
import Testing
import Transfer

/// A clock that moves only when slept on.
final class FakeClock: TransferClock {
    private let time = Mutex(0.0)
    private let slept = Mutex<[Double]>([])
    func now() -> Double { time.withLock { $0 } }
    func sleep(_ seconds: Double) {
        slept.withLock { $0.append(seconds) }
        time.withLock { $0 += max(seconds, 0) }
    }
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    var sleeps: [Double] { slept.withLock { $0 } }
}

@Suite struct RateLimiterTests {
    @Test func theBucketLetsABurstThroughThenHoldsTheRate() {
        var bucket = TokenBucket(bytesPerSecond: 1000, burst: 250)
        #expect(bucket.take(250, now: 0) == 0)
        #expect(bucket.take(500, now: 0) == 0.5)
        // Half a second later the debt is paid; a second later 250 (the burst, not 1000) is credited.
        #expect(bucket.take(0, now: 0.5) == 0)
        #expect(bucket.take(250, now: 1.5) == 0)
        #expect(bucket.take(100, now: 1.5) == 0.1)
    }

    @Test func aLimiterOnAFakeClockSendsTenMegabytesInTenSeconds() {
        let clock = FakeClock()
        let limiter = RateLimiter(bytesPerSecond: 1_000_000, clock: clock)
        #expect(limiter.chunk == 100_000)
        for _ in 0..<100 { limiter.take(100_000) }
        // 10 MB at 1 MB/s, less the quarter second of burst.
        #expect(abs(clock.now() - 9.75) < 0.001, "\(clock.now())")
    }

    @Test func theMeterGivesTheRateOverItsSpanAndTheTimeLeft() {
        var meter = RateMeter(span: 5)
        #expect(meter.secondsLeft(100) == nil)
        meter.record(totalBytes: 0, at: 0)
        meter.record(totalBytes: 1000, at: 1)
        #expect(meter.bytesPerSecond == 1000)
        #expect(meter.secondsLeft(5000) == 5)
        for t in 2...10 { meter.record(totalBytes: 1000 + Int64(t - 1) * 100, at: Double(t)) }
        #expect(abs(meter.bytesPerSecond - 100) < 0.001)
    }
}

@Suite struct ChecksumPlanTests {
    @Test func theCommandQuotesThePathAndFallsBackToShasum() {
        let command = ChecksumPlan.command(for: Array("-a b'c".utf8))
        #expect(command.contains("sha256sum -- '-a b'\\''c'"))
        #expect(command.contains("shasum -a 256 -- '-a b'\\''c'"))
    }

    @Test func itReadsTheDigestOrSaysWhyThereIsNone() {
        let hex = String(repeating: "ab", count: 32)
        #expect(ChecksumPlan.read(stdout: Array("\(hex)  f\n".utf8), stderr: [], status: 0, host: "web1") == .digest(hex))
        // GNU's escaped line for a name with a newline.
        #expect(ChecksumPlan.read(stdout: Array("\\\(hex)  a\\nb\n".utf8), stderr: [], status: 0, host: "web1")
                == .digest(hex))
        #expect(ChecksumPlan.read(stdout: Array("essh-no-sha256-tool\n".utf8), stderr: [], status: 127, host: "web1")
                == .unavailable("no sha256sum or shasum on web1"))
        #expect(ChecksumPlan.read(stdout: [], stderr: Array("sha256sum: f: Permission denied\n".utf8), status: 1,
                                  host: "web1") == .unavailable("the checksum on web1 failed: sha256sum: f: Permission denied"))
    }
}
