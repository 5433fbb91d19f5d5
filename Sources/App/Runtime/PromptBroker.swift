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
        /// Whether cancelling the connection answers it (the vault's question before remembering a password is not
        /// the connection's).
        let ofConnection: Bool

        init(ofConnection: Bool) {
            self.ofConnection = ofConnection
        }
    }

    private struct Questions {
        var nextId = 1
        var waiting: [Int: Waiter] = [:]
        var cancelled = false
        /// The server password the person typed during this connection (the last one) with the user and host it
        /// was for, for the offer to remember it in the vault; taken by `takeTypedPassword`, dropped by `reset`.
        var typedPassword: (user: String, host: String, text: String)?
    }

    private let questions = Mutex(Questions())
    private let post: @Sendable (Message) -> Void

    init(post: @escaping @Sendable (Message) -> Void) {
        self.post = post
    }

    /// A new connection starts: questions may be asked again.
    func reset() {
        questions.withLock { questions in
            questions.cancelled = false
            questions.typedPassword = nil
        }
    }

    /// The connection was cancelled: every question of it waiting gets no answer, and later ones are not asked.
    func cancelAll() {
        let all = questions.withLock { questions in
            questions.cancelled = true
            let ofConnection = questions.waiting.filter { $0.value.ofConnection }
            for id in ofConnection.keys { questions.waiting[id] = nil }
            return Array(ofConnection.values)
        }
        for waiter in all { waiter.done.signal() }
    }

    /// The password the person typed during this connection for `user`@`host` (the destination, not a jump host),
    /// once (nil: none typed for it, or taken already).
    func takeTypedPassword(user: String, host: String) -> String? {
        questions.withLock { questions in
            defer { questions.typedPassword = nil }
            guard let typed = questions.typedPassword, typed.user == user, typed.host == host else { return nil }
            return typed.text
        }
    }

    func answer(id: Int, _ answer: PromptAnswer) {
        guard let waiter = questions.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiter.answer.withLock { $0 = answer }
        waiter.done.signal()
    }

    private func ask(_ kind: PromptRequest.Kind) -> PromptAnswer? {
        let ofConnection = PromptRequest(id: 0, kind: kind).belongsToConnection
        let asked: (id: Int, waiter: Waiter)? = questions.withLock { questions in
            if questions.cancelled && ofConnection { return nil }
            let id = questions.nextId
            questions.nextId += 1
            let waiter = Waiter(ofConnection: ofConnection)
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
        guard case .text(let texts)? = ask(.password(user: user, host: host, attempt: attempt)),
              let typed = texts?.first else { return nil }
        questions.withLock { $0.typedPassword = (user, host, typed) }
        return typed
    }

    /// The vault's passphrase, masked (`problem`: what was wrong with the last one); nil when the person gave up
    /// (Esc) or, for a login's question, the connection was cancelled.
    func vaultPassphrase(attempt: Int, problem: String?, purpose: PromptRequest.VaultPurpose) -> String? {
        let kind = PromptRequest.Kind.vaultPassphrase(attempt: attempt, problem: problem, purpose: purpose)
        if case .text(let texts)? = ask(kind) { return texts?.first }
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
