import AppCore

/// What the loop needs to run the core's effects: `AppRuntime` takes any of these, so the loop is tested with a
/// fake (teatest's seam) and runs with `LiveEffects` (the workers). The split is in the types: `Work` goes to
/// `run`, a `Handoff` to `handOver`, which the loop calls itself with the terminal handed over.
protocol EffectHandler: AnyObject {
    /// Starts `work` off the UI thread; its results come back as messages through the runtime's queue. Never blocks.
    func run(_ work: Work)
    /// Runs `handoff` on the calling (UI) thread while the runtime has left the full-screen mode; the terminal is
    /// the handed-over work's until this returns.
    func handOver(_ handoff: Handoff) -> HandoffOutcome
    /// The loop ended: stop what still runs and say goodbye to servers, waiting a bounded time.
    func finish()
    /// A line for the person once the terminal is given back (after `finish`), or nil.
    var farewell: String? { get }
}

extension EffectHandler {
    var farewell: String? { nil }
}
