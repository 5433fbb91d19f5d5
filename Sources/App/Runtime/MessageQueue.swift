import AppCore
import Foundation
import TUIKit

/// Messages from worker threads to the UI loop. Posting wakes the loop's `poll`; bursts of output for one
/// command (or one fleet server's stream) are merged into one message so a fast stream costs one state update per
/// frame, not per packet.
///
/// Output is flow-controlled: while more than `outputLimit` bytes wait for the UI, the posting worker waits
/// (up to `maxWait` per chunk) for the UI to take them. The SSH channel's window then fills and the server
/// pauses, so a flood never piles up megabytes the UI must chew through before it sees the next key (Esc).
///
/// `@unchecked Sendable`: `items` and `pendingOutput` are read and written only with `condition` locked, and the
/// condition (not a `Mutex`) is what a waiting worker needs: it sleeps until the UI drains or `maxWait` passes.
final class MessageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Message] = []
    private var pendingOutput = 0
    private let waker: any TerminalWaker
    let outputLimit: Int
    let maxWait: TimeInterval

    init(waker: any TerminalWaker, outputLimit: Int = 256 * 1024, maxWait: TimeInterval = 1) {
        self.waker = waker
        self.outputLimit = outputLimit
        self.maxWait = maxWait
    }

    func post(_ message: Message) {
        condition.lock()
        if case .output(let id, let bytes) = message {
            // Bounded: a UI that stopped draining (quitting) delays a worker by `maxWait`, never forever.
            let deadline = Date().addingTimeInterval(maxWait)
            while pendingOutput >= outputLimit && condition.wait(until: deadline) {}
            pendingOutput += bytes.count
            if case .output(let lastId, var previous)? = items.last, lastId == id {
                items.removeLast()
                previous.append(contentsOf: bytes)
                items.append(.output(id: id, bytes: previous))
            } else {
                items.append(message)
            }
        } else if case .fleetOutput(let id, let index, let stream, let bytes) = message,
                  case .fleetOutput(id, index, stream, var previous)? = items.last {
            // A fleet run's server streaming: one message per frame too (not flow-controlled: the run's own output
            // cap bounds it, and a paused server would eat into its deadline).
            items.removeLast()
            previous.append(contentsOf: bytes)
            items.append(.fleetOutput(id: id, index: index, stream, previous))
        } else if case .files(.transfer(let session, let id, .progress)) = message,
                  case .files(.transfer(session, id, .progress))? = items.last {
            // A copy's figures: only the newest unread ones are drawn.
            items[items.count - 1] = message
        } else {
            items.append(message)
        }
        condition.unlock()
        waker.wake()
    }

    /// Everything posted so far, oldest first.
    func drain() -> [Message] {
        condition.lock()
        defer { condition.unlock() }
        let taken = items
        items.removeAll(keepingCapacity: true)
        pendingOutput = 0
        condition.broadcast()
        return taken
    }
}
