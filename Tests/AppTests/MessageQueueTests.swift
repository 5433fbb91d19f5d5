import Foundation
import Testing
import TUIKit
@testable import App
@testable import AppCore

@Suite("MessageQueue: merging and flow control")
struct MessageQueueTests {
    final class CountingWaker: TerminalWaker, @unchecked Sendable {
        private let lock = NSLock()
        private var wakes = 0
        func wake() { lock.withLock { wakes += 1 } }
        var count: Int { lock.withLock { wakes } }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var set = false
        func raise() { lock.withLock { set = true } }
        var isSet: Bool { lock.withLock { set } }
    }

    @Test func aFleetServersOutputIsMergedPerServerAndStream() {
        let queue = MessageQueue(waker: CountingWaker())
        queue.post(.fleetOutput(id: 1, index: 0, .stdout, [1]))
        queue.post(.fleetOutput(id: 1, index: 0, .stdout, [2]))
        queue.post(.fleetOutput(id: 1, index: 0, .stderr, [3]))
        queue.post(.fleetOutput(id: 1, index: 1, .stderr, [4]))
        queue.post(.fleetOutput(id: 1, index: 1, .stderr, [5]))
        let drained = queue.drain()
        #expect(drained.count == 3)
        if case .fleetOutput(1, 0, .stdout, let bytes)? = drained.first { #expect(bytes == [1, 2]) } else {
            Issue.record("stdout of server 0 first: \(drained)")
        }
        if case .fleetOutput(1, 1, .stderr, let bytes)? = drained.last { #expect(bytes == [4, 5]) } else {
            Issue.record("server 1 last: \(drained)")
        }
    }

    @Test func outputOfOneCommandIsMergedInOrderAndOtherMessagesKeepTheirPlace() {
        let waker = CountingWaker()
        let queue = MessageQueue(waker: waker)
        queue.post(.output(id: 1, bytes: [1, 2]))
        queue.post(.output(id: 1, bytes: [3]))
        queue.post(.commandFinished(id: 1, status: 0, signal: nil, at: Date(timeIntervalSince1970: 0)))
        queue.post(.output(id: 2, bytes: [4]))
        let drained = queue.drain()
        #expect(drained.count == 3)
        if case .output(1, let bytes)? = drained.first {
            #expect(bytes == [1, 2, 3])
        } else {
            Issue.record("output first: \(drained)")
        }
        if case .commandFinished(1, _, _, _) = drained[1] {} else { Issue.record("finished second: \(drained)") }
        #expect(waker.count == 4)
        #expect(queue.drain().isEmpty)
    }

    @Test func aWorkerWaitsWhileTooMuchOutputIsUnreadAndGoesOnWhenTheUITakesIt() throws {
        let queue = MessageQueue(waker: CountingWaker(), outputLimit: 100, maxWait: 10)
        queue.post(.output(id: 1, bytes: Array(repeating: 7, count: 100)))
        let posted = Flag()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            queue.post(.output(id: 1, bytes: [8]))
            posted.raise()
            done.signal()
        }
        usleep(300_000)
        #expect(!posted.isSet, "the worker waits while 100 bytes are unread")
        let first = queue.drain()
        #expect(done.wait(timeout: .now() + 5) == .success, "draining lets the worker go on")
        #expect(posted.isSet)
        let second = queue.drain()
        var total = 0
        for case .output(_, let bytes) in first + second { total += bytes.count }
        #expect(total == 101, "nothing lost")
    }

    @Test func aUIThatStopsDrainingDelaysAWorkerOnlyBriefly() {
        let queue = MessageQueue(waker: CountingWaker(), outputLimit: 10, maxWait: 0.2)
        queue.post(.output(id: 1, bytes: Array(repeating: 1, count: 10)))
        let start = Date()
        queue.post(.output(id: 1, bytes: [2]))
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.15 && waited < 3, "waited \(waited) s")
        #expect(queue.drain().count == 1)
    }
}
