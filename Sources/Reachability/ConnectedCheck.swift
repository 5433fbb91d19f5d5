import Foundation

/// The second half of a check whose connection something else made — a `direct-tcpip` channel through a bastion,
/// joined to one end of a socket pair: the identification line is read from that end and judged exactly as a direct
/// check judges it (`BannerParser`, the same statuses and sentences). Blocking, one descriptor; the caller closes it.
public enum ConnectedCheck {
    /// Reads `fd` until the verdict, the end of the stream or `timeout` seconds after `started` (when the check
    /// began), and says what it found. `connectedAfter` is the seconds the connection took (the outcome's latency),
    /// `address` what answered.
    public static func outcome(index: Int, target: CheckTarget, fd: Int32, timeout: Double, started: Date,
                               connectedAfter: Double, address: String) -> CheckOutcome {
        let tracker = TargetTracker(targets: [target], timeout: timeout)
        let connectNanos = UInt64(max(0, connectedAfter) * 1_000_000_000)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        let deadline = started.addingTimeInterval(timeout)
        var outcome: CheckOutcome?
        while outcome == nil {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32((left * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { break }
            var ended = false
            var resetText: String?
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
                // Judged at a line end or once enough came, as the direct loop does.
                guard received.count > BannerParser.maxReceived || buffer[0..<n].contains(UInt8(ascii: "\n"))
                else { continue }
            } else if n == 0 {
                ended = true
            } else if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK {
                continue
            } else {
                ended = true
                resetText = String(cString: strerror(errno))
            }
            outcome = tracker.banner(0, received: received, ended: ended, resetText: resetText,
                                     connectNanos: connectNanos, address: address)
            if ended && outcome == nil { break }
        }
        var result = outcome ?? tracker.attemptTimedOut(0, address: address, connectNanos: connectNanos,
                                                        received: received)
        result.index = index
        return result
    }
}
