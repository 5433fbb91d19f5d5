import AppCore
import Foundation
import Synchronization

/// Messages a worker posted, collected from its threads; `wait` polls until a predicate holds (or a deadline).
final class Posted: Sendable {
    private let messages = Mutex<[Message]>([])

    var post: @Sendable (Message) -> Void { { [self] message in messages.withLock { $0.append(message) } } }

    var all: [Message] { messages.withLock { $0 } }

    /// Waits up to `seconds` for `done(all)`; returns what was posted by then.
    @discardableResult
    func wait(seconds: Double = 10, until done: ([Message]) -> Bool) -> [Message] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let now = all
            if done(now) { return now }
            usleep(2_000)
        }
        return all
    }
}
