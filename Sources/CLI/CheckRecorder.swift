import Foundation
import Inventory

/// Saves check results while the run goes on: most results arrive in the first moments while the slowest servers
/// wait out the timeout, so writing them in batches on a background queue leaves little to write at the end.
/// `@unchecked Sendable`: `pending`, `scheduled` and `failure` are touched only with `lock` held, and the inventory
/// only on `queue` (one serial queue), so callers on any thread never race.
final class CheckRecorder: @unchecked Sendable {
    private let inventory: Inventory
    private let queue = DispatchQueue(label: "essh.check.recorder")
    private let lock = NSLock()
    private var pending: [CheckResult] = []
    private var scheduled = false
    private var failure: InventoryError?

    init(inventory: Inventory) {
        self.inventory = inventory
    }

    /// Queues one result; a write follows within 50 ms.
    func add(_ result: CheckResult) {
        lock.lock()
        pending.append(result)
        let schedule = !scheduled
        scheduled = true
        lock.unlock()
        if schedule { queue.asyncAfter(deadline: .now() + 0.05) { [self] in flush() } }
    }

    /// Writes what is left and reports the first failure of any write.
    func finish() throws(InventoryError) {
        queue.sync { flush() }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
    }

    private func flush() {
        lock.lock()
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        scheduled = false
        lock.unlock()
        if batch.isEmpty { return }
        do {
            try inventory.recordCheckResults(batch)
        } catch {
            lock.lock()
            if failure == nil { failure = error }
            lock.unlock()
        }
    }
}
