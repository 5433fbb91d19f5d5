/// Decides when the UI loop draws and how long it may sleep in `Terminal.poll`: output can arrive thousands of
/// times a second, but the screen is redrawn at most once per `interval`, and an idle loop sleeps until
/// something happens (or until its own `idle` timeout, e.g. a spinner tick).
public struct FramePacer: Sendable {
    /// The shortest time between two frames.
    public let interval: Duration
    /// True when the state changed since the last frame.
    public private(set) var isDirty = true
    private var lastFrame: ContinuousClock.Instant?

    /// A pacer allowing one frame per `interval` (30 ms by default, about 33 frames a second).
    public init(interval: Duration = .milliseconds(30)) { self.interval = interval }

    /// Notes that the state changed and the screen needs a new frame.
    public mutating func invalidate() { isDirty = true }

    /// True when a frame is needed and the last one is at least `interval` old.
    public func shouldDraw(at now: ContinuousClock.Instant) -> Bool {
        guard isDirty else { return false }
        guard let lastFrame else { return true }
        return now - lastFrame >= interval
    }

    /// Records that a frame was drawn at `now`.
    public mutating func didDraw(at now: ContinuousClock.Instant) {
        lastFrame = now
        isDirty = false
    }

    /// How long the loop may wait for input: until the next frame is due when one is needed, else `idle`
    /// (nil: without limit).
    public func pollTimeout(at now: ContinuousClock.Instant, idle: Duration?) -> Duration? {
        guard isDirty, let lastFrame else { return isDirty ? .zero : idle }
        let wait = interval - (now - lastFrame)
        return wait > .zero ? wait : .zero
    }

    /// Time since the last frame (for animations that tick with frames), or nil before the first.
    public func sinceLastFrame(at now: ContinuousClock.Instant) -> Duration? { lastFrame.map { now - $0 } }
}
