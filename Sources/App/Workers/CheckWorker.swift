import AppCore
import Foundation
import Inventory
import Reachability

/// Online checks of the saved servers (Reachability's epoll loop) on their own queue, each result posted as it
/// comes, then all of them recorded in the database.
final class CheckWorker: Sendable {
    private let inventory: Inventory
    private let post: @Sendable (Message) -> Void
    private let queue = DispatchQueue(label: "essh.app.check")

    init(inventory: Inventory, post: @escaping @Sendable (Message) -> Void) {
        self.inventory = inventory
        self.post = post
    }

    /// Checks servers (by row id) with this timeout in seconds.
    func check(_ targets: [Int64: CheckTarget], timeout: Double) {
        queue.async { [self] in run(targets, timeout: timeout) }
    }

    private func run(_ targets: [Int64: CheckTarget], timeout: Double) {
        let ids = targets.keys.sorted()
        let list = ids.compactMap { targets[$0] }
        do throws(ReachabilityError) {
            let checker = try Checker(options: Checker.Options(timeout: timeout))
            let outcomes = try checker.check(list) { [self] outcome in
                post(.checkResult(serverId: ids[outcome.index], status: outcome.status,
                                  latencyMs: outcome.latencyMs, at: Date()))
            }
            let now = Date()
            let results = outcomes.map {
                CheckResult(serverId: ids[$0.index], status: $0.status, latencyMs: $0.latencyMs,
                            banner: $0.banner, error: $0.error, checkedAt: now)
            }
            var failure: String?
            do throws(InventoryError) { try inventory.recordCheckResults(results) } catch { failure = error.message }
            post(.checkFinished(error: failure, at: now))
        } catch {
            post(.checkFinished(error: "The check could not run: \(error.message)", at: Date()))
        }
    }
}
