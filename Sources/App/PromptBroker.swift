import Foundation
import SSH

/// The TUI's `Prompter`: the SSH worker thread posts the question to the UI loop as a message and waits until
/// the person answers (or the connection is cancelled). Answers live only in memory until they are handed over.
final class PromptBroker: Prompter, @unchecked Sendable {
    private final class Waiter {
        let done = DispatchSemaphore(value: 0)
        var answer: PromptAnswer?
    }

    private let lock = NSLock()
    private var nextId = 1
    private var waiting: [Int: Waiter] = [:]
    private var cancelled = false
    private let post: @Sendable (Message) -> Void

    init(post: @escaping @Sendable (Message) -> Void) {
        self.post = post
    }

    /// A new connection starts: questions may be asked again.
    func reset() {
        lock.lock()
        cancelled = false
        lock.unlock()
    }

    /// The connection was cancelled: every waiting question gets no answer, and later ones are not asked.
    func cancelAll() {
        lock.lock()
        cancelled = true
        let all = waiting.values
        waiting.removeAll()
        lock.unlock()
        for waiter in all { waiter.done.signal() }
    }

    func answer(id: Int, _ answer: PromptAnswer) {
        lock.lock()
        let waiter = waiting.removeValue(forKey: id)
        waiter?.answer = answer
        lock.unlock()
        waiter?.done.signal()
    }

    private func ask(_ kind: PromptRequest.Kind) -> PromptAnswer? {
        lock.lock()
        if cancelled {
            lock.unlock()
            return nil
        }
        let id = nextId
        nextId += 1
        let waiter = Waiter()
        waiting[id] = waiter
        lock.unlock()
        post(.prompt(PromptRequest(id: id, kind: kind)))
        waiter.done.wait()
        lock.lock()
        defer { lock.unlock() }
        return waiter.answer
    }

    func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision {
        let kind = PromptRequest.Kind.hostKey(host: question.host, port: question.port, type: question.key.type,
                                              fingerprint: question.key.fingerprint)
        if case .hostKey(let decision)? = ask(kind) { return decision }
        return .reject
    }

    func password(user: String, host: String, attempt: Int) -> String? {
        guard attempt <= 3 else { return nil }
        if case .text(let texts)? = ask(.password(user: user, host: host, attempt: attempt)) { return texts?.first }
        return nil
    }

    func passphrase(keyFile: String, attempt: Int) -> String? {
        guard attempt <= 3 else { return nil }
        if case .text(let texts)? = ask(.passphrase(keyFile: keyFile, attempt: attempt)) { return texts?.first }
        return nil
    }

    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]? {
        let kind = PromptRequest.Kind.keyboard(instruction: instruction.isEmpty ? name : instruction,
                                               prompts: prompts.map(\.text), echo: prompts.map(\.echo))
        if case .text(let texts)? = ask(kind), let texts, texts.count == prompts.count { return texts }
        return nil
    }
}
