import AppCore
import Foundation
import SSH
import Synchronization

/// The TUI's `Prompter`: the SSH worker thread posts the question to the UI loop as a message and waits until
/// the person answers (or the connection is cancelled). Answers live only in memory until they are handed over.
final class PromptBroker: Prompter, Sendable {
    /// One question waiting: the worker waits on `done`; `answer` is set before it is signalled.
    private final class Waiter: Sendable {
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<PromptAnswer?>(nil)
    }

    private struct Questions {
        var nextId = 1
        var waiting: [Int: Waiter] = [:]
        var cancelled = false
    }

    private let questions = Mutex(Questions())
    private let post: @Sendable (Message) -> Void

    init(post: @escaping @Sendable (Message) -> Void) {
        self.post = post
    }

    /// A new connection starts: questions may be asked again.
    func reset() {
        questions.withLock { $0.cancelled = false }
    }

    /// The connection was cancelled: every waiting question gets no answer, and later ones are not asked.
    func cancelAll() {
        let all = questions.withLock { questions in
            questions.cancelled = true
            defer { questions.waiting.removeAll() }
            return Array(questions.waiting.values)
        }
        for waiter in all { waiter.done.signal() }
    }

    func answer(id: Int, _ answer: PromptAnswer) {
        guard let waiter = questions.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiter.answer.withLock { $0 = answer }
        waiter.done.signal()
    }

    private func ask(_ kind: PromptRequest.Kind) -> PromptAnswer? {
        let asked: (id: Int, waiter: Waiter)? = questions.withLock { questions in
            if questions.cancelled { return nil }
            let id = questions.nextId
            questions.nextId += 1
            let waiter = Waiter()
            questions.waiting[id] = waiter
            return (id, waiter)
        }
        guard let asked else { return nil }
        post(.prompt(PromptRequest(id: asked.id, kind: kind)))
        asked.waiter.done.wait()
        return asked.waiter.answer.withLock { $0 }
    }

    func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision {
        let kind = PromptRequest.Kind.hostKey(host: question.host, port: question.port, type: question.key.type,
                                              fingerprint: question.key.fingerprint,
                                              alsoKnownAs: question.sameKeyNames)
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
