import Foundation
import SSH

/// Time as the `TunnelSupervisor` sees it, so tests run its reconnects without waiting.
public protocol TunnelClock: Sendable {
    /// Seconds on a clock that never goes back.
    func now() -> Double
    /// Waits `seconds`, or less when `cancel` fires; false when it fired.
    func wait(_ seconds: Double, cancel: Cancellation) -> Bool
    /// A random number in 0..<1 (the backoff's jitter).
    func random() -> Double
}

/// The real clock: the monotonic clock, waits on the cancellation's pipe.
public struct SystemTunnelClock: TunnelClock {
    public init() {}

    public func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    public func wait(_ seconds: Double, cancel: Cancellation) -> Bool {
        let end = now() + seconds
        while !cancel.isCancelled {
            let left = end - now()
            if left <= 0 { return true }
            var p = pollfd(fd: cancel.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(min(left * 1000 + 1, 1000)))
        }
        return false
    }

    public func random() -> Double { Double.random(in: 0..<1) }
}
