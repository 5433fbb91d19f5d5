import Foundation
import Synchronization

/// Time for the rate limiter and the progress meter, injected so tests run on a fake clock.
public protocol TransferClock: Sendable {
    /// Seconds from any fixed start.
    func now() -> Double
    func sleep(_ seconds: Double)
}

/// The real clock: the monotonic one, and a real sleep.
public struct SystemClock: TransferClock {
    public init() {}
    public func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
    public func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&ts, &left) != 0 && errno == EINTR { ts = left }
    }
}

/// A token bucket: `rate` bytes per second, holding at most `burst` bytes of credit. Pure: the caller passes the time.
public struct TokenBucket: Sendable, Equatable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var last: Double?

    public init(bytesPerSecond: Int64, burst: Double? = nil) {
        rate = Double(max(bytesPerSecond, 1))
        self.burst = burst ?? max(rate / 4, 1)
        tokens = self.burst
    }

    /// Takes `bytes` at time `now` and returns how long to wait before sending them (0: at once).
    public mutating func take(_ bytes: Int, now: Double) -> Double {
        if let last { tokens = min(burst, tokens + (now - last) * rate) }
        last = now
        tokens -= Double(bytes)
        return tokens >= 0 ? 0 : -tokens / rate
    }
}

/// --limit for a whole transfer: every lane takes from one bucket and sleeps as long as it says.
public final class RateLimiter: Sendable {
    private let bucket: Mutex<TokenBucket>
    private let clock: TransferClock
    /// Bytes to read at a time, so one lane does not take a second's credit at once.
    public let chunk: Int

    public init(bytesPerSecond: Int64, clock: TransferClock = SystemClock()) {
        bucket = Mutex(TokenBucket(bytesPerSecond: bytesPerSecond))
        self.clock = clock
        chunk = Int(min(max(bytesPerSecond / 10, 4096), 2 << 20))
    }

    /// Waits until `bytes` may go.
    public func take(_ bytes: Int) {
        let now = clock.now()
        let wait = bucket.withLock { $0.take(bytes, now: now) }
        clock.sleep(wait)
    }
}

/// The rate over the last few seconds, and the time left at that rate.
public struct RateMeter: Sendable {
    private var samples: [(time: Double, bytes: Int64)] = []
    /// Seconds of history the rate is taken over.
    public let span: Double

    public init(span: Double = 5) { self.span = span }

    public mutating func record(totalBytes: Int64, at now: Double) {
        samples.append((now, totalBytes))
        while samples.count > 2, let first = samples.first, now - first.time > span { samples.removeFirst() }
    }

    /// Bytes per second (0 until two samples at least a tenth of a second apart).
    public var bytesPerSecond: Double {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.1 else { return 0 }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }

    /// Seconds left for `remaining` bytes at the current rate; nil until a rate is known.
    public func secondsLeft(_ remaining: Int64) -> Double? {
        let rate = bytesPerSecond
        return rate > 0 ? Double(max(remaining, 0)) / rate : nil
    }
}
