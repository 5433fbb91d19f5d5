import AppCore
import Foundation
import Inventory
import Operations
import SSH
import Synchronization

/// The interface's source of stored secrets (the `SecretProvider` a login's credential prompter asks): takes them
/// from the `InterfaceVault`, and when the vault is locked asks the person for its passphrase through the prompt
/// path — once per login; a wrong passphrase is asked again with the reason, at most 3 times; Esc (or 3 wrong ones)
/// leaves the vault locked for the rest of that login, which then asks the server's password as before. While the
/// vault is unlocked nothing is asked. It also holds the password typed at the last login until the person says
/// whether to remember it (`rememberTyped`, `forgetTyped`). Called on worker threads only: every method may wait for
/// the person or the disk. It is the `vault` source's `SecretProvider` for `CredentialPrompter` (sessions, the Files
/// screen) and for fleet runs (`sibling(forRuns:)`: one of its own, whose "login" is a whole run).
final class InterfaceSecrets: SecretProvider {
    /// Why no secret can be had, as a sentence (the vault is locked, has none, is damaged); never the secret.
    typealias Unavailable = CredentialUnavailable

    /// What one login has done with the vault so far.
    private struct Login {
        /// The saved server's name (nil: not a saved server).
        var server: String?
        /// The person declined to unlock (Esc, or 3 wrong passphrases): not asked again during this login.
        var declined = false
        /// The vault gave this login a password.
        var gavePassword = false
        /// The vault gave this login keyboard-interactive answers.
        var gaveAnswers = false
    }

    /// A password typed at a login, held until the person answers the offer to remember it.
    private struct Held {
        var server: String
        var bytes: [UInt8]
    }

    private let vault: any InterfaceVault
    private let broker: PromptBroker
    private let post: @Sendable (Message) -> Void
    private let serverUID: @Sendable (String) throws -> String?
    private let clock: @Sendable () -> Date
    private let login = Mutex(Login())
    private let held = Mutex<Held?>(nil)
    /// One passphrase question at a time: a second login needing the vault meanwhile waits, then finds it unlocked.
    /// Shared with the sibling for fleet runs.
    private let unlocking: DispatchSemaphore
    /// Fleet runs' secrets: the passphrase question says it is for the run, and does not go with a connection.
    private let forRuns: Bool

    /// `serverUID` gives a saved server's stable id by name (nil: no such server), the key of its vault entries.
    convenience init(vault: any InterfaceVault, broker: PromptBroker, post: @escaping @Sendable (Message) -> Void,
                     serverUID: @escaping @Sendable (String) throws -> String?,
                     clock: @escaping @Sendable () -> Date = Date.init) {
        self.init(vault: vault, broker: broker, post: post, serverUID: serverUID, clock: clock,
                  unlocking: DispatchSemaphore(value: 1), forRuns: false)
    }

    private init(vault: any InterfaceVault, broker: PromptBroker, post: @escaping @Sendable (Message) -> Void,
                 serverUID: @escaping @Sendable (String) throws -> String?, clock: @escaping @Sendable () -> Date,
                 unlocking: DispatchSemaphore, forRuns: Bool) {
        self.vault = vault
        self.broker = broker
        self.post = post
        self.serverUID = serverUID
        self.clock = clock
        self.unlocking = unlocking
        self.forRuns = forRuns
    }

    /// Secrets with a state of their own over the same vault and passphrase question (one question at a time with
    /// this one's): for the Files screen's logins (`forRuns` false), or for fleet runs (`forRuns` true: the
    /// interface's and the Files screen's copies to servers), where a run is one "login" (`beginRun`), so the
    /// passphrase is asked at most once per run and Esc leaves every server of it without its stored password.
    func sibling(forRuns: Bool) -> InterfaceSecrets {
        InterfaceSecrets(vault: vault, broker: broker, post: post, serverUID: serverUID, clock: clock,
                         unlocking: unlocking, forRuns: forRuns)
    }

    /// A fleet run starts (`sibling(forRuns: true)`): the vault may be asked for once again.
    func beginRun() {
        login.withLock { $0 = Login(server: nil) }
    }

    /// What the interface shows at start: whether there is a vault and whether it is open.
    func status() -> VaultEvent { .status(exists: vault.exists(), unlocked: vault.isUnlocked) }

    // MARK: a login's secrets

    /// A login to `server` (a saved server's name; nil for others) starts: the vault may be asked for again.
    func beginLogin(server: String?) {
        login.withLock { $0 = Login(server: server) }
    }

    /// The server's login password from the vault.
    func password(forServer uid: String) throws(Unavailable) -> String {
        let text = try secret(uid, .password, what: "password")
        login.withLock { $0.gavePassword = true }
        return text
    }

    /// The passphrase of `keyFile` from the vault.
    func passphrase(forServer uid: String, keyFile: String) throws(Unavailable) -> String {
        try secret(uid, .passphrase(keyFile: keyFile), what: "passphrase for \(keyFile)")
    }

    /// The answers to keyboard-interactive `prompts` from the vault, one per prompt, in order.
    func answers(forServer uid: String, prompts: [String]) throws(Unavailable) -> [String] {
        var answers: [String] = []
        for prompt in prompts {
            answers.append(try secret(uid, .answer(prompt: prompt), what: "answer to “\(prompt)”"))
        }
        login.withLock { $0.gaveAnswers = true }
        return answers
    }

    private func secret(_ uid: String, _ kind: VaultSecretKind, what: String) throws(Unavailable) -> String {
        let server = login.withLock { $0.server }
        try unlockIfNeeded(forRuns ? .fleetRun : .login(server: server))
        let found: [UInt8]?
        do throws(VaultProblem) {
            found = try vault.secret(serverUID: uid, kind: kind)
        } catch {
            throw Unavailable(error.sentence)
        }
        guard var bytes = found else {
            throw Unavailable("The vault has no \(what) for \(server ?? "this server").")
        }
        defer { Self.zero(&bytes) }
        post(.vault(.used(at: clock())))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The login ended with `method`; `typed` is the password the person typed during it (if any). Says how the
    /// vault had a part in it — the vault's password logged in, or a typed one of a saved server did (then held for
    /// the offer to remember it) — or nil.
    func loginFinished(method: LoginMethod, typed: String?) -> VaultEvent? {
        let done = login.withLock { login in
            defer { login = Login() }
            return login
        }
        if method == .keyboardInteractive && done.gaveAnswers && typed == nil { return .login(.vault, vaultExists: true) }
        guard method == .password else { return nil }
        if let typed, let server = done.server, !done.declined {
            let exists = vault.exists()
            if exists { hold(server: server, typed) }
            return .login(done.gavePassword ? .typedAfterVaultRejected(server: server) : .typed(server: server),
                          vaultExists: exists)
        }
        if typed == nil && done.gavePassword { return .login(.vault, vaultExists: true) }
        return nil
    }

    // MARK: the offer to remember a typed password

    private func hold(server: String, _ typed: String) {
        let previous = held.withLock { held in
            defer { held = Held(server: server, bytes: Array(typed.utf8)) }
            return held
        }
        if var previous { Self.zero(&previous.bytes) }
    }

    /// Stores the password typed at the last login to `server`, unlocking the vault first (asking its passphrase)
    /// when it is locked; says how it went as a `VaultEvent`.
    func rememberTyped(server: String) {
        let taken = takeHeld()
        guard var password = taken, password.server == server else {
            if var other = taken { Self.zero(&other.bytes) }
            return post(.vault(.failed("The password typed for \(server) is no longer held: nothing was stored.")))
        }
        defer { Self.zero(&password.bytes) }
        do throws(Unavailable) {
            try unlockIfNeeded(.remember(server: server))
        } catch {
            return post(.vault(.failed("Nothing was stored: \(error.message)")))
        }
        let uid: String?
        do {
            uid = try serverUID(server)
        } catch {
            return post(.vault(.failed("Nothing was stored: \(server) could not be looked up.")))
        }
        guard let uid else { return post(.vault(.failed("Nothing was stored: \(server) is no longer saved."))) }
        do throws(VaultProblem) {
            try vault.remember(password: password.bytes, serverUID: uid, name: server)
        } catch {
            return post(.vault(.failed("Nothing was stored: \(error.sentence)")))
        }
        post(.vault(.used(at: clock())))
        post(.vault(.remembered(server: server)))
    }

    /// Drops the typed password held for the offer (declined, or not offered after all).
    func forgetTyped() {
        if var taken = takeHeld() { Self.zero(&taken.bytes) }
    }

    /// The typed password held, no longer held.
    private func takeHeld() -> Held? {
        held.withLock { held in
            defer { held = nil }
            return held
        }
    }

    /// Drops the vault's key (the lock key, the idle lock, quitting).
    func lock() { vault.lock() }

    // MARK: unlocking

    /// Returns once the vault is unlocked, asking the passphrase when it is not: at most 3 times, each wrong one
    /// asked again with the reason. Throws when there is no vault, the person declined (Esc, or declined earlier in
    /// this login), 3 passphrases were wrong, or the file cannot be opened.
    private func unlockIfNeeded(_ purpose: PromptRequest.VaultPurpose) throws(Unavailable) {
        if vault.isUnlocked { return }
        unlocking.wait()
        defer { unlocking.signal() }
        // Another login may have unlocked it while this one waited: nothing to ask.
        if vault.isUnlocked { return }
        guard vault.exists() else { throw Unavailable("No vault yet: run essh vault init.") }
        let forLogin: Bool
        if case .remember = purpose { forLogin = false } else { forLogin = true }
        if forLogin, login.withLock({ $0.declined }) {
            throw Unavailable("The vault stays locked for this login.")
        }
        var problem: String?
        for attempt in 1...Self.attempts {
            guard let typed = broker.vaultPassphrase(attempt: attempt, problem: problem, purpose: purpose) else {
                if forLogin { login.withLock { $0.declined = true } }
                throw Unavailable("The vault was not unlocked.")
            }
            var bytes = Array(typed.utf8)
            defer { Self.zero(&bytes) }
            do throws(VaultProblem) {
                try vault.unlock(passphrase: bytes)
                post(.vault(.used(at: clock())))
                return
            } catch where error.kind == .wrongPassphrase {
                problem = error.sentence
            } catch {
                if forLogin { login.withLock { $0.declined = true } }
                post(.vault(.failed(error.sentence)))
                throw Unavailable(error.sentence)
            }
        }
        if forLogin { login.withLock { $0.declined = true } }
        throw Unavailable("The vault stays locked: \(Self.attempts) wrong passphrases.")
    }

    /// How many passphrases one unlock asks for at most.
    static let attempts = 3

    /// Overwrites a secret's bytes before they are let go.
    static func zero(_ bytes: inout [UInt8]) {
        for i in bytes.indices { bytes[i] = 0 }
    }
}

extension InterfaceSecrets {
    /// A saved server's source of stored secrets in the interface: `CredentialSourceCheck`'s rule with the
    /// interface's vault (`vault`: the session's or the fleet runs' `InterfaceSecrets`). Without a vault wired in
    /// (nil, in tests), a `vault` server has none (a login asks, a fleet run reports it) and a `command:` one still
    /// has its command.
    static func provider(_ source: CredentialSource, vault: InterfaceSecrets?) -> (any SecretProvider)? {
        if let vault { return CredentialSourceCheck.provider(source, vault: vault) }
        if case .command(let line) = source { return CommandSecretProvider(line: line) }
        return nil
    }
}
