import Foundation

/// How long a tunnel whose session dropped waits before each attempt to come back: exponential backoff with jitter,
/// as a pure function (the random number is given), so the schedule is tested without a clock.
public struct ReconnectSchedule: Sendable, Equatable {
    /// The wait before the first attempt, in seconds.
    public var first: Double
    /// Each failed attempt multiplies the wait by this.
    public var factor: Double
    /// The longest wait.
    public var cap: Double
    /// The wait varies by up to this fraction either way (0.2: ±20 %), so tunnels that dropped together do not all
    /// knock at once.
    public var jitter: Double

    public init(first: Double = 1, factor: Double = 2, cap: Double = 60, jitter: Double = 0.2) {
        self.first = first
        self.factor = factor
        self.cap = cap
        self.jitter = jitter
    }

    /// The wait before attempt `attempt` (1 is the first after a drop); `unit` is a random number in 0..<1 (0.5:
    /// no jitter). Never negative, never more than `cap` plus its jitter.
    public func delay(attempt: Int, unit: Double) -> Double {
        let exponent = Double(max(0, attempt - 1))
        let base = min(cap, first * pow(factor, min(exponent, 64)))
        let spread = jitter * (2 * min(max(unit, 0), 1) - 1)
        return max(0, base * (1 + spread))
    }
}
