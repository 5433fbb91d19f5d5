import AppCore
import Basics
import Foundation
import Inventory
import LocalProcess
import Synchronization
import Team
import Vault

/// Keeps the local cache in step with the team database (issue 18) on a thread of its own, so nothing in the
/// interface waits on the network. It does nothing when the inventory is not linked to a team. Otherwise, in a loop:
/// open the team database, run `TeamSync.run` (push the queued edits, pull, publish checks), post `.team` with the
/// link's status and whether shared rows changed, then LISTEN and wait for another member's change (sync again), a
/// local wake (`syncNow`: an edit to push), or `periodic` seconds. When the database does not answer, the status says
/// so and it tries again after 2 s, doubling to 60 s.
///
/// The password: libpq's own sources first (~/.pgpass, a client certificate, peer); else the one the vault keeps
/// under `team:` + the URL's display (as `essh team sync` stores it), only when the vault is unlocked or the unlock
/// agent holds its key — the worker never asks. Without one, the status says to run `essh team sync` once.
final class TeamWorker: Sendable {
    /// The password the vault keeps under this id; nil when it keeps none or is locked (never a question).
    typealias VaultPassword = @Sendable (_ id: String) -> [UInt8]?

    /// The waits: between periodic syncs, and the first and the longest pause after a failure (seconds).
    struct Timing: Sendable {
        var periodic: Double = 60
        var firstRetry: Double = 2
        var longestRetry: Double = 60
        /// Seconds libpq waits for the server when connecting.
        var connectTimeout: Int = 5
    }

    private let inventory: Inventory
    private let post: @Sendable (Message) -> Void
    private let vaultPassword: VaultPassword
    private let timing: Timing
    /// Wakes the loop from its wait (a local edit to push, or the end); nil when no pipe could be made (then the
    /// loop notices both within `periodic`, and `stop` does not wait for it).
    private let wake: SelfPipe?
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// Signalled when the loop's thread ends.
    private let ended = DispatchSemaphore(value: 0)

    init(inventory: Inventory, post: @escaping @Sendable (Message) -> Void,
         vaultPassword: @escaping VaultPassword = { _ in nil }, timing: Timing = Timing()) {
        self.inventory = inventory
        self.post = post
        self.vaultPassword = vaultPassword
        self.timing = timing
        wake = try? SelfPipe()
    }

    /// Starts the loop's thread (once); it ends at once when the inventory is not linked to a team.
    func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            defer { ended.signal() }
            run()
        }
        thread.name = "essh.app.team"
        thread.start()
    }

    /// Syncs now (an edit was queued, checks were recorded), without waiting for the next change or period.
    func syncNow() {
        wake?.wake()
    }

    /// Ends the loop and waits up to `seconds` for its thread (a connection attempt under way may take longer:
    /// the process does not wait for it). True when it ended.
    @discardableResult
    func stop(seconds: Double = 2) -> Bool {
        stopping.store(true, ordering: .relaxed)
        wake?.wake()
        guard started.load(ordering: .relaxed), wake != nil else { return true }
        let done = ended.wait(timeout: .now() + seconds) == .success
        if done { ended.signal() }
        return done
    }

    private var isStopping: Bool { stopping.load(ordering: .relaxed) }

    // MARK: the loop

    private func run() {
        guard let link = try? inventory.teamLink() else { return }
        let url = link.url
        var retry = timing.firstRetry
        var database: TeamDatabase?
        var listening = false
        while !isStopping {
            if database == nil {
                switch open(url) {
                case .opened(let opened):
                    database = opened
                    listening = false
                case .failed(let problem):
                    postStatus(problem, changed: false)
                    pause(retry)
                    retry = min(retry * 2, timing.longestRetry)
                    continue
                }
            }
            guard let open = database else { continue }
            do throws(TeamError) {
                // Listening before the first pull: a change committed meanwhile is announced, never missed.
                if !listening {
                    try open.listen()
                    listening = true
                }
                let report = try TeamSync.run(open, inventory: inventory)
                retry = timing.firstRetry
                postStatus(nil, changed: Self.changedRows(report))
                // Another member's change, a local wake or the period: each means sync again. A wake that came
                // during the sync is still in the pipe, so an edit queued meanwhile is pushed now, not in a minute.
                _ = try open.waitForChange(timeout: timing.periodic, wake: wake?.readDescriptor)
                _ = wake?.drain()
            } catch {
                database = nil
                postStatus(Self.problem(error), changed: false)
                if isStopping { break }
                pause(retry)
                retry = min(retry * 2, timing.longestRetry)
            }
        }
    }

    /// Opens the team database: libpq's own credentials, else the vault's password for it.
    private func open(_ url: String) -> Opening {
        do throws(TeamError) {
            return .opened(try TeamDatabase.open(url: url, password: nil, timeout: timing.connectTimeout))
        } catch let error where error.kind == .needsPassword {
            // Below: the vault.
        } catch {
            return .failed(Self.problem(error))
        }
        guard let parsed = try? TeamURL(url), var password = vaultPassword(parsed.vaultID) else {
            return .failed(.needsPassword)
        }
        defer { Wipe.bytes(&password) }
        do throws(TeamError) {
            return .opened(try TeamDatabase.open(url: url, password: password, timeout: timing.connectTimeout))
        } catch let error where error.kind == .authenticationFailed {
            return .failed(.failed("the password the vault holds for \(parsed.display) was refused; run essh team "
                + "sync to give it again"))
        } catch {
            return .failed(Self.problem(error))
        }
    }

    /// An attempt to open the team database: open, or why not.
    private enum Opening {
        case opened(TeamDatabase)
        case failed(TeamStatus.Problem)
    }

    /// Waits `seconds`, or less when woken (an edit to push: try now) or stopped.
    private func pause(_ seconds: Double) {
        guard let wake else {
            Thread.sleep(forTimeInterval: min(seconds, 1))
            return
        }
        var descriptor = pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(seconds * 1000))
        if !isStopping { wake.drain() }
    }

    /// Posts the link's status as the cache has it now, with `problem`.
    private func postStatus(_ problem: TeamStatus.Problem?, changed: Bool) {
        guard !isStopping, let status = Self.status(of: inventory, problem: problem) else { return }
        post(.team(status, changed: changed))
    }

    /// The link's status from the cache: the link, the counts of queued edits and conflicts, the published checks.
    static func status(of inventory: Inventory, problem: TeamStatus.Problem?) -> TeamStatus? {
        guard let link = try? inventory.teamLink() else { return nil }
        let counts = try? inventory.teamCounts()
        let checks = (try? inventory.teamChecksByServer()) ?? [:]
        return TeamStatus(member: link.member, role: link.role, revision: link.revision, lastSync: link.lastSync,
                          problem: problem, queued: counts?.outbox ?? 0, conflicts: counts?.conflicts ?? 0,
                          checks: checks)
    }

    /// Whether a sync changed rows the list shows (added, changed, removed, renamed, pushed, refused, conflicting).
    static func changedRows(_ report: TeamSync.Report) -> Bool {
        let applied = report.applied
        return !applied.added.isEmpty || !applied.changed.isEmpty || !applied.removed.isEmpty
            || !applied.renamed.isEmpty || report.pushed > 0 || !report.refused.isEmpty || !report.conflicts.isEmpty
    }

    /// A team error as the team line says it.
    static func problem(_ error: TeamError) -> TeamStatus.Problem {
        if error.isOffline { return .unreachable(error.message) }
        if error.kind == .needsPassword { return .needsPassword }
        return .failed(error.message)
    }
}
