import Basics
import AppCore
import Foundation
import Inventory
import TUIKit

/// The UI loop: draws the state (at most once per frame), waits in `poll` for a key, a resize, a message from a
/// worker or the next tick, feeds each to `Update.update`, and hands the effects to the `EffectHandler` — work to
/// `run`, a handoff to `handOver` with the terminal suspended. It never blocks on the network or the disk and
/// sleeps while nothing happens.
final class AppRuntime {
    private let terminal: any Terminal
    private let queue: MessageQueue
    private let effects: any EffectHandler
    private let trace: FrameTrace?
    private(set) var state: AppState
    /// What the terminal was last told about the mouse (it starts without reporting it).
    private var mouseReporting = false

    /// A loop over `effects`, which post their results to `queue` (whose waker must be the terminal's).
    init(terminal: any Terminal, effects: any EffectHandler, queue: MessageQueue, environment: [String: String],
         localUser: String, unicode: Bool) {
        self.terminal = terminal
        self.queue = queue
        self.effects = effects
        state = AppState(size: terminal.size, now: Date(), localUser: localUser)
        state.unicode = unicode
        state.home = environment["HOME"] ?? ""
        let traced = FrameTrace.from(environment: environment)
        trace = traced.trace
        if let notice = traced.notice {
            // The status line may soon show something else (the start check's result); the log keeps it.
            state.notice = notice
            AppLog(environment: environment).write(notice)
        }
    }

    /// The loop with the live workers over `inventory`.
    convenience init(terminal: any Terminal, inventory: Inventory, environment: [String: String], localUser: String,
                     unicode: Bool) {
        let queue = MessageQueue(waker: terminal.waker)
        // The vault file the command line uses, or the unlock agent's key; a saved server's vault entries are keyed
        // by its stable uid.
        let live = LiveEffects(inventory: inventory, queue: queue, environment: environment, localUser: localUser,
                               vault: StoreVault(environment: environment),
                               serverUID: { name in try inventory.findServer(named: name)?.uid })
        self.init(terminal: terminal, effects: live, queue: queue, environment: environment, localUser: localUser,
                  unicode: unicode)
    }

    private func dispatch(_ message: Message) {
        for effect in Update.update(&state, message) {
            switch effect {
            case .work(let work): effects.run(work)
            case .handOver(let handoff): handOver(handoff)
            case .suspend: suspend()
            }
        }
        // The mouse setting (loaded, toggled with m, or saved on the Settings screen) reaches the terminal here.
        if state.mouseReporting != mouseReporting {
            mouseReporting = state.mouseReporting
            terminal.setMouseReporting(mouseReporting)
        }
    }

    /// Leaves the full-screen mode, lets the handoff use the terminal, takes it back (everything is redrawn).
    private func handOver(_ handoff: Handoff) {
        let outcome: HandoffOutcome
        do {
            outcome = try terminal.suspend { effects.handOver(handoff) }
        } catch {
            state.notice = "The terminal could not be handed over: \(UserFacing.sentence(error))"
            return
        }
        dispatch(.handedBack(outcome))
    }

    /// Ctrl-Z: the terminal restored and eSSH stopped until `fg`, then everything redrawn; the clock moves on.
    private func suspend() {
        do {
            try terminal.stopProcess()
        } catch {
            state.notice = "eSSH could not be suspended: \(UserFacing.sentence(error))"
        }
        state.now = Date()
    }

    /// Runs until the person quits; the caller shuts the terminal down.
    /// What to say once the terminal is given back (the tunnels that were stopped), after `run`.
    var farewell: String? { effects.farewell }

    func run() throws {
        effects.run(.load)
        let clock = ContinuousClock()
        var pacer = FramePacer()
        var lastTick = clock.now
        defer { effects.finish() }
        while !state.shouldQuit {
            if pacer.shouldDraw(at: clock.now) {
                var buffer = Buffer(size: terminal.size)
                let cursor = AppView.render(state, into: &buffer)
                try terminal.draw(buffer, cursor: cursor)
                trace?.drew(buffer, loaded: state.loaded)
                pacer.didDraw(at: clock.now)
            }
            let interval = state.tickInterval
            let untilTick = interval.map { max(.zero, $0 - (clock.now - lastTick)) }
            let event = try terminal.poll(timeout: pacer.pollTimeout(at: clock.now, idle: untilTick))
            let messages = queue.drain()
            // The state's clock moves with everything that happens, not only with ticks ("5 min ago").
            if event != nil || !messages.isEmpty {
                state.now = Date()
                pacer.invalidate()
            }
            if let event { dispatch(.input(event)) }
            for message in messages { dispatch(message) }
            if let interval, clock.now - lastTick >= interval {
                lastTick = clock.now
                dispatch(.tick(Date()))
                pacer.invalidate()
            } else if interval == nil {
                lastTick = clock.now
            }
        }
    }
}
