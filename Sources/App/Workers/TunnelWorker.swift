import AppCore
import Basics
import Foundation
import Operations
import Synchronization

/// The interface's tunnels: a `TunnelSupervisor` keeping the started ones up whatever screen is shown, posting
/// every tunnel's status on each change of state and once a second while one runs (the figures and rates move).
final class TunnelWorker: Sendable {
    private let post: @Sendable (Message) -> Void
    private let supervisor: TunnelSupervisor
    private let ticking = Mutex(false)

    init(post: @escaping @Sendable (Message) -> Void, opener: @escaping TunnelOpener,
         clock: any TunnelClock = SystemTunnelClock(), schedule: ReconnectSchedule = ReconnectSchedule()) {
        self.post = post
        let box = Mutex<TunnelSupervisor?>(nil)
        let supervisor = TunnelSupervisor(schedule: schedule, clock: clock, opener: opener, onChange: { _ in
            if let supervisor = box.withLock({ $0 }) { post(.tunnels(supervisor.snapshot())) }
        })
        box.withLock { $0 = supervisor }
        self.supervisor = supervisor
    }

    func start(_ id: TunnelID) {
        supervisor.start(id)
        tick()
    }

    func stop(_ id: TunnelID) { supervisor.stop(id) }

    func restart(_ id: TunnelID) {
        supervisor.restart(id)
        tick()
    }

    func forget(_ id: TunnelID) {
        supervisor.forget(id)
        post(.tunnels(supervisor.snapshot()))
    }

    /// Stops every tunnel (waiting for their sessions to close); how many were running.
    func stopAll() -> Int { supervisor.stopAll() }

    /// Posts the figures once a second while any tunnel runs (one ticking thread at a time).
    private func tick() {
        let first = ticking.withLock { on -> Bool in
            defer { on = true }
            return !on
        }
        guard first else { return }
        let started = PlainThread.start { [self] in
            while true {
                usleep(1_000_000)
                post(.tunnels(supervisor.snapshot()))
                let done = ticking.withLock { on -> Bool in
                    if supervisor.runningCount == 0 { on = false }
                    return !on
                }
                if done { return }
            }
        }
        if !started { ticking.withLock { $0 = false } }
    }
}
