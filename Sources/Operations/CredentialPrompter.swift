import Basics
import Inventory
import SSH
import Synchronization

/// The prompter of one connection to a saved server whose credential source is `vault` or `command`: it answers
/// the first password, passphrase or keyboard-interactive request of that server's own host — never a jump host's —
/// from the server's `SecretProvider`, and passes every other question to the front end's prompter (`wrapped`).
///
/// A stored secret the server rejects is not retried in a loop: the person is asked once (through `wrapped`, after
/// `notice` said why) and `storedSecretRejected` is set, so the front end can offer to update the vault. A secret
/// that cannot be had (`unavailable`: the vault is locked, the command failed) is said through `notice` and the
/// person is asked instead, as with `ask`. A password the person typed for the server is kept until
/// `takeTypedPassword()` (the front end offers "Remember in the vault" once the login succeeded), then dropped.
/// With source `ask` every question goes to `wrapped` as it is.
public final class CredentialPrompter: Prompter {
    private let wrapped: any Prompter
    private let uid: String
    private let host: String
    private let keyFiles: Set<String>
    private let provider: (any SecretProvider)?
    private let notice: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        /// Where the stored secret is: not yet given, given once, given and rejected (the person asked once),
        /// or not to be used (none could be had).
        var phase = Phase.fresh
        var rejected = false
        var unavailable: CredentialUnavailable?
        var typed: String?
        /// The prompt texts the stored answers went to (a second round with the same prompts is a rejection).
        var answeredPrompts: [String] = []
        /// The stored passphrase was refused (the person was asked once).
        var passphraseRejected = false
    }

    private enum Phase { case fresh, storedGiven, askedAfterRejection, notStored }

    /// A prompter for the saved server `server` connecting to `host` (its own host; its options' host), with the
    /// key files of its own login (`keyFiles`, expanded), its secrets from `provider` (nil for `ask`); `notice`
    /// shows a sentence to the person (the terminal's stderr, the interface's status line).
    public init(wrapping wrapped: any Prompter, uid: String, host: String, keyFiles: [String] = [],
                provider: (any SecretProvider)?, notice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.wrapped = wrapped
        self.uid = uid
        self.host = host
        self.keyFiles = Set(keyFiles)
        self.provider = provider
        self.notice = notice
    }

    /// The server rejected the stored secret (the front end offers to update the vault).
    public var storedSecretRejected: Bool { state.withLock { $0.rejected } }

    /// Why the stored secret could not be had, if it could not.
    public var unavailable: CredentialUnavailable? { state.withLock { $0.unavailable } }

    /// The password the person typed for this server, once (call it after the login succeeded); nil when none was
    /// typed. It is dropped here.
    public func takeTypedPassword() -> String? {
        state.withLock { state in
            defer { state.typed = nil }
            return state.typed
        }
    }

    public func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision { wrapped.confirmHostKey(question) }

    public func password(user: String, host: String, attempt: Int) -> String? {
        guard host == self.host else { return wrapped.password(user: user, host: host, attempt: attempt) }
        guard let provider else { return remember(wrapped.password(user: user, host: host, attempt: attempt)) }
        switch decide(attempt: attempt) {
        case .stored:
            do {
                return try provider.password(forServer: uid)
            } catch {
                failed(error)
                return remember(wrapped.password(user: user, host: host, attempt: 1))
            }
        case .askOnce:
            return remember(wrapped.password(user: user, host: host, attempt: 2))
        case .pass(let attempt):
            return remember(wrapped.password(user: user, host: host, attempt: attempt))
        case .stop:
            return nil
        }
    }

    public func passphrase(keyFile: String, attempt: Int) -> String? {
        guard let provider, keyFiles.contains(keyFile) else {
            return wrapped.passphrase(keyFile: keyFile, attempt: attempt)
        }
        let (rejected, unavailable) = state.withLock { ($0.passphraseRejected, $0.unavailable != nil) }
        if unavailable { return wrapped.passphrase(keyFile: keyFile, attempt: attempt) }
        if rejected { return attempt == 1 ? wrapped.passphrase(keyFile: keyFile, attempt: 1) : nil }
        switch attempt {
        case 1:
            do {
                return try provider.passphrase(forServer: uid, keyFile: keyFile)
            } catch {
                failed(error)
                return wrapped.passphrase(keyFile: keyFile, attempt: 1)
            }
        case 2:
            state.withLock { state in
                state.passphraseRejected = true
                state.rejected = true
            }
            notice("The stored passphrase of \(keyFile) was refused; type it (asked once).")
            return wrapped.passphrase(keyFile: keyFile, attempt: 2)
        default:
            return nil
        }
    }

    public func keyboardInteractive(name: String, instruction: String,
                                    prompts: [(text: String, echo: Bool)]) -> [String]? {
        wrapped.keyboardInteractive(name: name, instruction: instruction, prompts: prompts)
    }

    public func keyboardInteractive(user: String, host: String, name: String, instruction: String,
                                    prompts: [(text: String, echo: Bool)]) -> [String]? {
        func ask() -> [String]? {
            let answers = wrapped.keyboardInteractive(user: user, host: host, name: name, instruction: instruction,
                                                      prompts: prompts)
            if let answers, prompts.count == 1, !prompts[0].echo { _ = remember(answers.first) }
            return answers
        }
        guard host == self.host else {
            return wrapped.keyboardInteractive(user: user, host: host, name: name, instruction: instruction,
                                               prompts: prompts)
        }
        guard let provider, !prompts.isEmpty else { return ask() }
        let texts = prompts.map(\.text)
        let phase = state.withLock { $0.phase }
        let sameAgain = phase == .storedGiven && state.withLock { $0.answeredPrompts == texts }
        if phase == .storedGiven && !sameAgain { return ask() }  // another round (a one-time code after the password)
        switch decide(attempt: phase == .fresh ? 1 : 2) {
        case .stored:
            do throws(CredentialUnavailable) {
                let answers = try provider.answers(forServer: uid, prompts: texts)
                guard answers.count == prompts.count else {
                    throw CredentialUnavailable("The stored answers do not fit the server's prompts.")
                }
                state.withLock { $0.answeredPrompts = texts }
                return answers
            } catch {
                failed(error)
                return ask()
            }
        case .askOnce, .pass:
            return ask()
        case .stop:
            return nil
        }
    }

    private enum Decision: Equatable {
        case stored
        case askOnce
        case pass(Int)
        case stop
    }

    /// What to do for a request of the server's own secret, `attempt` counting from 1.
    private func decide(attempt: Int) -> Decision {
        let (decision, rejectedNow) = state.withLock { state -> (Decision, Bool) in
            switch state.phase {
            case .notStored: return (.pass(attempt), false)
            case .fresh:
                state.phase = .storedGiven
                return (.stored, false)
            case .storedGiven:
                state.phase = .askedAfterRejection
                state.rejected = true
                return (.askOnce, true)
            case .askedAfterRejection: return (.stop, false)
            }
        }
        if rejectedNow { notice("The server refused the stored password; type it (asked once).") }
        return decision
    }

    private func failed(_ error: CredentialUnavailable) {
        state.withLock { state in
            state.unavailable = error
            state.phase = .notStored
        }
        notice(error.message)
    }

    private func remember(_ typed: String?) -> String? {
        if let typed { state.withLock { $0.typed = typed } }
        return typed
    }
}
