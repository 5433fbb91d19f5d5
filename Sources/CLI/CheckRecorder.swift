import Foundation
import Inventory
import Synchronization

/// Saves check results while the run goes on: most results arrive in the first moments while the slowest servers
/// wait out the timeout, so writing them in batches on a background queue leaves little to write at the end.
/// Callers on any thread add results; the batch state sits in a `Mutex` and the inventory is used only on `queue`
/// (one serial queue).
final class CheckRecorder: Sendable {
    private struct State {
        var pending: [CheckResult] = []
        var scheduled = false
        var failure: InventoryError?
    }

    private let inventory: Inventory
    private let queue = DispatchQueue(label: "essh.check.recorder")
    private let state = Mutex(State())

    init(inventory: Inventory) {
        self.inventory = inventory
    }

    /// Queues one result; a write follows within 50 ms.
    func add(_ result: CheckResult) {
        let schedule = state.withLock { state in
            state.pending.append(result)
            let first = !state.scheduled
            state.scheduled = true
            return first
        }
        if schedule { queue.asyncAfter(deadline: .now() + 0.05) { [self] in flush() } }
    }

    /// Writes what is left and reports the first failure of any write.
    func finish() throws(InventoryError) {
        queue.sync { flush() }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    private func flush() {
        let batch = state.withLock { state in
            let batch = state.pending
            state.pending.removeAll(keepingCapacity: true)
            state.scheduled = false
            return batch
        }
        if batch.isEmpty { return }
        do {
            try inventory.recordCheckResults(batch)
        } catch {
            state.withLock { state in
                if state.failure == nil { state.failure = error }
            }
        }
    }
}
