import Basics

/// Tells a dead network from a quiet shell. The session sends a keepalive (which the server must answer) every
/// `interval` seconds while the shell waits, so a healthy server is never silent for much longer than that.
/// As OpenSSH's ServerAliveCountMax, the connection counts as lost once `maxMissed` keepalives in a row went
/// unanswered: nothing at all heard for `interval × (maxMissed + 1)` seconds. Pure: time comes in as numbers.
public struct KeepaliveWatch: Sendable, Equatable {
    /// Seconds between keepalives (0: none are sent, so silence never counts).
    public let interval: Double
    /// How many unanswered keepalives in a row end the shell.
    public let maxMissed: Int
    private var lastHeard: Double

    /// Starts watching at `now` (seconds on any monotonic clock).
    public init(interval: Double, maxMissed: Int, now: Double) {
        self.interval = interval
        self.maxMissed = max(1, maxMissed)
        lastHeard = now
    }

    /// The server sent something at `now`.
    public mutating func heard(at now: Double) { lastHeard = max(lastHeard, now) }

    /// Whether the server has been silent too long by `now`.
    public func isLost(at now: Double) -> Bool {
        interval > 0 && now - lastHeard >= interval * Double(maxMissed + 1)
    }

    /// Seconds of silence the loop may sleep at most before checking again.
    public func secondsUntilCheck(at now: Double) -> Double {
        guard interval > 0 else { return 3600 }
        // Wake twice per interval: the session sends a keepalive only from inside a wait, and libssh2 counts whole
        // seconds, so waking once per interval could skip one.
        return max(0.05, min(interval / 2, lastHeard + interval * Double(maxMissed + 1) - now))
    }

    /// The reason given when the connection is declared lost.
    public var lostReason: String {
        let silence = DurationText.text(interval * Double(maxMissed + 1), .number)
        return "The server did not answer \(maxMissed) keepalives in a row (\(silence) s without a word from it)."
    }
}
