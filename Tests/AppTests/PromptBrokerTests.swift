import Foundation
import SSH
import Testing
@testable import App
@testable import AppCore

/// The bridge between the SSH worker thread (which asks and waits) and the UI (which answers).
@Suite("PromptBroker")
struct PromptBrokerTests {
    /// Collects posted messages from the worker thread.
    final class Posted: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [PromptRequest] = []
        func add(_ message: Message) {
            guard case .prompt(let request) = message else { return }
            lock.lock()
            requests.append(request)
            lock.unlock()
        }
        func waitForRequest() -> PromptRequest? { waitForRequest(after: 0) }

        /// The first request with an id above `id`.
        func waitForRequest(after id: Int) -> PromptRequest? {
            for _ in 0..<500 {
                lock.lock()
                let first = requests.first { $0.id > id }
                lock.unlock()
                if let first { return first }
                usleep(2_000)
            }
            return nil
        }
    }

    final class Box<T>: @unchecked Sendable { var value: T?; let done = DispatchSemaphore(value: 0) }

    @Test func theWorkerWaitsForThePersonsAnswer() throws {
        let posted = Posted()
        let broker = PromptBroker(post: { posted.add($0) })
        let result = Box<String?>()
        Thread.detachNewThread {
            result.value = broker.password(user: "admin", host: "web1", attempt: 1)
            result.done.signal()
        }
        let request = try #require(posted.waitForRequest())
        #expect(request.kind == .password(user: "admin", host: "web1", attempt: 1))
        #expect(result.done.wait(timeout: .now() + 0.1) == .timedOut, "the worker waits")
        broker.answer(id: request.id, .text(["s3cret"]))
        #expect(result.done.wait(timeout: .now() + 5) == .success)
        #expect(result.value == "s3cret")
    }

    @Test func cancellingReleasesTheWorkerAndStopsFurtherQuestions() throws {
        let posted = Posted()
        let broker = PromptBroker(post: { posted.add($0) })
        let result = Box<[String]?>()
        Thread.detachNewThread {
            result.value = broker.keyboardInteractive(name: "", instruction: "", prompts: [("Code:", true)])
            result.done.signal()
        }
        _ = try #require(posted.waitForRequest())
        broker.cancelAll()
        #expect(result.done.wait(timeout: .now() + 5) == .success)
        #expect(result.value == .some(nil))
        #expect(broker.passphrase(keyFile: "k", attempt: 1) == nil, "no question after a cancel")
        #expect(broker.password(user: "u", host: "h", attempt: 4) == nil, "three attempts at most")
    }

    @Test func theTypedPasswordIsKeptForTheOfferOnceAndANewConnectionDropsIt() throws {
        let posted = Posted()
        let broker = PromptBroker(post: { posted.add($0) })
        let result = Box<String?>()
        Thread.detachNewThread {
            result.value = broker.password(user: "admin", host: "web1", attempt: 1)
            result.done.signal()
        }
        let request = try #require(posted.waitForRequest())
        broker.answer(id: request.id, .text(["typed"]))
        #expect(result.done.wait(timeout: .now() + 5) == .success)
        #expect(broker.takeTypedPassword(user: "admin", host: "bastion") == nil, "only the destination's")
        Thread.detachNewThread {
            result.value = broker.password(user: "admin", host: "web1", attempt: 1)
            result.done.signal()
        }
        let again = try #require(posted.waitForRequest(after: request.id))
        broker.answer(id: again.id, .text(["typed"]))
        #expect(result.done.wait(timeout: .now() + 5) == .success)
        #expect(broker.takeTypedPassword(user: "admin", host: "web1") == "typed")
        #expect(broker.takeTypedPassword(user: "admin", host: "web1") == nil, "taken once")
        broker.reset()
        #expect(broker.takeTypedPassword(user: "admin", host: "web1") == nil)
    }

    @Test func cancellingTheConnectionLeavesTheQuestionBeforeRememberingWaiting() throws {
        let posted = Posted()
        let broker = PromptBroker(post: { posted.add($0) })
        let result = Box<String?>()
        Thread.detachNewThread {
            result.value = broker.vaultPassphrase(attempt: 1, problem: nil, purpose: .remember(server: "web1"))
            result.done.signal()
        }
        let request = try #require(posted.waitForRequest())
        broker.cancelAll()
        #expect(result.done.wait(timeout: .now() + 0.1) == .timedOut, "not the connection's question")
        broker.answer(id: request.id, .text(["pass"]))
        #expect(result.done.wait(timeout: .now() + 5) == .success)
        #expect(result.value == "pass")
        #expect(broker.vaultPassphrase(attempt: 1, problem: nil, purpose: .login(server: "web1")) == nil,
                "a login's question after the cancel is not asked")
    }
}
