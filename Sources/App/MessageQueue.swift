import Foundation
import TUIKit

/// Messages from worker threads to the UI loop. Posting wakes the loop's `poll`; bursts of output for one
/// command are merged into one message so a fast stream costs one state update per frame, not per packet.
final class MessageQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Message] = []
    private let waker: any TerminalWaker

    init(waker: any TerminalWaker) {
        self.waker = waker
    }

    func post(_ message: Message) {
        lock.lock()
        if case .output(let id, let bytes) = message, case .output(let lastId, let previous)? = items.last,
           lastId == id {
            items[items.count - 1] = .output(id: id, bytes: previous + bytes)
        } else {
            items.append(message)
        }
        lock.unlock()
        waker.wake()
    }

    /// Everything posted so far, oldest first.
    func drain() -> [Message] {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items.removeAll(keepingCapacity: true)
        return taken
    }
}
