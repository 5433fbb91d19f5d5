import AppCore
import Foundation
import Inventory
import Operations
import SSH
import Synchronization
import TestSupport
import Testing
@testable import App

/// The interface's stored secrets against a fake vault: the passphrase asked once through the prompt path, asked
/// again after a wrong one (at most 3 times), Esc declining for the rest of the login, nothing asked while unlocked,
/// and the typed password held for the offer to remember it.
@Suite("InterfaceSecrets")
struct InterfaceSecretsTests {
    /// A vault in memory opened by one passphrase; it counts unlocks and records what was stored.
    final class FakeVault: InterfaceVault {
        struct Contents {
            var exists = true
            var unlocked = false
            var unlocks = 0
            var damaged = false
            var entries: [String: [UInt8]] = [:]
            var remembered: [(uid: String, name: String, password: String)] = []
        }

        let passphrase: String
        let contents: Mutex<Contents>

        init(passphrase: String = "correct horse", exists: Bool = true, entries: [String: String] = [:]) {
            self.passphrase = passphrase
            contents = Mutex(Contents(exists: exists, entries: entries.mapValues { Array($0.utf8) }))
        }

        static func key(_ uid: String, _ kind: VaultSecretKind) -> String { "\(uid) \(kind)" }

        var isUnlocked: Bool { contents.withLock { $0.unlocked } }
        var unlocks: Int { contents.withLock { $0.unlocks } }
        func exists() -> Bool { contents.withLock { $0.exists } }

        func unlock(passphrase typed: [UInt8]) throws(VaultProblem) {
            let (exists, damaged) = contents.withLock { ($0.exists, $0.damaged) }
            guard exists else { throw VaultProblem(.noVault, "No vault yet: run essh vault init.") }
            guard !damaged else { throw VaultProblem(.failed, "The vault file is damaged (its header MAC is wrong).") }
            guard typed == Array(passphrase.utf8) else { throw VaultProblem(.wrongPassphrase, "Wrong passphrase.") }
            contents.withLock {
                $0.unlocked = true
                $0.unlocks += 1
            }
        }

        func lock() { contents.withLock { $0.unlocked = false } }

        func secret(serverUID: String, kind: VaultSecretKind) throws(VaultProblem) -> [UInt8]? {
            guard isUnlocked else { throw VaultProblem(.locked, "The vault is locked.") }
            return contents.withLock { $0.entries[Self.key(serverUID, kind)] }
        }

        func remember(password: [UInt8], serverUID: String, name: String) throws(VaultProblem) {
            guard isUnlocked else { throw VaultProblem(.locked, "The vault is locked.") }
            contents.withLock {
                $0.entries[Self.key(serverUID, .password)] = password
                $0.remembered.append((serverUID, name, String(decoding: password, as: UTF8.self)))
            }
        }
    }

    /// The person at the keyboard: answers each vault question with the next of `answers` (nil: Esc), from a thread
    /// of its own, and keeps the questions it saw.
    final class Person: Sendable {
        let posted = Posted()
        private let seen = Mutex<[PromptRequest]>([])
        private let answers: Mutex<[String?]>
        private let stop = Mutex(false)
        private let broker = Mutex<PromptBroker?>(nil)

        init(answers: [String?]) {
            self.answers = Mutex(answers)
        }

        var questions: [PromptRequest] { seen.withLock { $0 } }

        /// Serves `broker` (one broker per person: a second would race the first for the answers).
        func start(with broker: PromptBroker) {
            precondition(self.broker.withLock { $0 } == nil, "one broker per person")
            self.broker.withLock { $0 = broker }
            Thread.detachNewThread { [self] in
                var handled = 0
                while !stop.withLock({ $0 }) {
                    let prompts = posted.all.compactMap { if case .prompt(let r) = $0 { r } else { nil } }
                    while handled < prompts.count {
                        let request = prompts[handled]
                        handled += 1
                        seen.withLock { $0.append(request) }
                        let answer = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                        broker.answer(id: request.id, .text(answer.map { [$0] }))
                    }
                    usleep(1_000)
                }
            }
        }

        func finish() { stop.withLock { $0 = true } }
    }

    static let uid = "5f0c-web1"

    static func secrets(_ vault: FakeVault, _ person: Person, uids: [String: String] = ["web1": uid])
        -> InterfaceSecrets
    {
        let broker = PromptBroker(post: person.posted.post)
        person.start(with: broker)
        return InterfaceSecrets(vault: vault, broker: broker, post: person.posted.post,
                                serverUID: { uids[$0] }, clock: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    static func vaultEvents(_ messages: [Message]) -> [VaultEvent] {
        messages.compactMap { if case .vault(let event) = $0 { event } else { nil } }
    }

    @Test func thePassphraseIsAskedOnceAndASecondLoginAsksNothing() throws {
        let vault = FakeVault(entries: [FakeVault.key(Self.uid, .password): "db-pass"])
        let person = Person(answers: ["correct horse"])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(try secrets.password(forServer: Self.uid) == "db-pass")
        #expect(person.questions.map(\.kind) == [.vaultPassphrase(attempt: 1, problem: nil,
                                                                  purpose: .login(server: "web1"))])
        #expect(Self.vaultEvents(person.posted.all).contains(.used(at: Date(timeIntervalSince1970: 1_800_000_000))))
        secrets.beginLogin(server: "web1")
        #expect(try secrets.password(forServer: Self.uid) == "db-pass")
        #expect(person.questions.count == 1, "unlocked: nothing asked")
        #expect(vault.unlocks == 1)
    }

    @Test func aWrongPassphraseIsAskedAgainWithTheReasonAtMostThreeTimes() throws {
        let vault = FakeVault(entries: [FakeVault.key(Self.uid, .password): "db-pass"])
        let person = Person(answers: ["nope", "correct horse"])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(try secrets.password(forServer: Self.uid) == "db-pass")
        #expect(person.questions.map(\.kind) == [
            .vaultPassphrase(attempt: 1, problem: nil, purpose: .login(server: "web1")),
            .vaultPassphrase(attempt: 2, problem: "Wrong passphrase.", purpose: .login(server: "web1")),
        ])

        let locked = FakeVault()
        let stubborn = Person(answers: ["a", "b", "c", "d"])
        defer { stubborn.finish() }
        let other = Self.secrets(locked, stubborn)
        other.beginLogin(server: "web1")
        #expect(throws: InterfaceSecrets.Unavailable("The vault stays locked: 3 wrong passphrases.")) {
            try other.password(forServer: Self.uid)
        }
        #expect(stubborn.questions.count == 3)
        // The login goes on without the vault: its next secret asks nothing more.
        #expect(throws: InterfaceSecrets.Unavailable("The vault stays locked for this login.")) {
            try other.passphrase(forServer: Self.uid, keyFile: "/home/me/.ssh/id_ed25519")
        }
        #expect(stubborn.questions.count == 3)
    }

    @Test func escapeDeclinesForTheRestOfTheLoginAndTheNextLoginAsksAgain() throws {
        let vault = FakeVault(entries: [FakeVault.key(Self.uid, .password): "db-pass"])
        let person = Person(answers: [nil, "correct horse"])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(throws: InterfaceSecrets.Unavailable("The vault was not unlocked.")) {
            try secrets.password(forServer: Self.uid)
        }
        #expect(throws: InterfaceSecrets.Unavailable("The vault stays locked for this login.")) {
            try secrets.password(forServer: Self.uid)
        }
        #expect(person.questions.count == 1, "asked once")
        secrets.beginLogin(server: "web1")
        #expect(try secrets.password(forServer: Self.uid) == "db-pass")
        #expect(person.questions.count == 2)
    }

    @Test func noVaultADamagedOneOrAMissingEntrySayWhyWithoutAsking() throws {
        let person = Person(answers: ["correct horse"])
        defer { person.finish() }
        let none = Self.secrets(FakeVault(exists: false), person)
        none.beginLogin(server: "web1")
        #expect(throws: InterfaceSecrets.Unavailable("No vault yet: run essh vault init.")) {
            try none.password(forServer: Self.uid)
        }
        #expect(person.questions.isEmpty)

        let damaged = FakeVault()
        damaged.contents.withLock { $0.damaged = true }
        let reader = Person(answers: ["correct horse"])
        defer { reader.finish() }
        let secrets = Self.secrets(damaged, reader)
        secrets.beginLogin(server: "web1")
        #expect(throws: InterfaceSecrets.Unavailable("The vault file is damaged (its header MAC is wrong).")) {
            try secrets.password(forServer: Self.uid)
        }
        #expect(reader.questions.count == 1, "a damaged file is not asked again")
        #expect(Self.vaultEvents(reader.posted.all).contains(.failed("The vault file is damaged (its header MAC is wrong).")))

        let empty = FakeVault()
        let other = Person(answers: ["correct horse"])
        defer { other.finish() }
        let emptySecrets = Self.secrets(empty, other)
        emptySecrets.beginLogin(server: "web1")
        #expect(throws: InterfaceSecrets.Unavailable("The vault has no password for web1.")) {
            try emptySecrets.password(forServer: Self.uid)
        }
    }

    @Test func keyboardInteractiveAnswersComeByPromptText() throws {
        let vault = FakeVault(entries: [FakeVault.key(Self.uid, .answer(prompt: "Password: ")): "pw",
                                        FakeVault.key(Self.uid, .answer(prompt: "PIN: ")): "1234"])
        vault.contents.withLock { $0.unlocked = true }
        let person = Person(answers: [])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(try secrets.answers(forServer: Self.uid, prompts: ["Password: ", "PIN: "]) == ["pw", "1234"])
        #expect(person.questions.isEmpty)
        #expect(secrets.loginFinished(method: .keyboardInteractive, typed: nil) == .login(.vault, vaultExists: true))
    }

    // MARK: after the login

    @Test func aTypedPasswordOfASavedServerIsOfferedAndRememberedAfterUnlocking() throws {
        let vault = FakeVault()
        let person = Person(answers: ["correct horse"])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(secrets.loginFinished(method: .password, typed: "typed-pw") == .login(.typed(server: "web1"),
                                                                                      vaultExists: true))
        secrets.rememberTyped(server: "web1")
        #expect(person.questions.map(\.kind) == [.vaultPassphrase(attempt: 1, problem: nil,
                                                                  purpose: .remember(server: "web1"))])
        let stored = vault.contents.withLock { $0.remembered }
        #expect(stored.map(\.uid) == [Self.uid])
        #expect(stored.map(\.name) == ["web1"])
        #expect(stored.map(\.password) == ["typed-pw"])
        #expect(Self.vaultEvents(person.posted.all).last == .remembered(server: "web1"))
        // Taken once: a second Yes has nothing to store.
        secrets.rememberTyped(server: "web1")
        #expect(vault.contents.withLock { $0.remembered.count } == 1)
        #expect(Self.vaultEvents(person.posted.all).last
                    == .failed("The password typed for web1 is no longer held: nothing was stored."))
    }

    @Test func declinedTheTypedPasswordIsForgotten() {
        let vault = FakeVault()
        vault.contents.withLock { $0.unlocked = true }
        let person = Person(answers: [])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        _ = secrets.loginFinished(method: .password, typed: "typed-pw")
        secrets.forgetTyped()
        secrets.rememberTyped(server: "web1")
        #expect(vault.contents.withLock { $0.remembered.isEmpty })
    }

    @Test func theVaultsPasswordSaysSoAndARefusedOneBringsTheUpdateOffer() throws {
        let vault = FakeVault(entries: [FakeVault.key(Self.uid, .password): "old-pw"])
        vault.contents.withLock { $0.unlocked = true }
        let person = Person(answers: [])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        _ = try secrets.password(forServer: Self.uid)
        #expect(secrets.loginFinished(method: .password, typed: nil) == .login(.vault, vaultExists: true))

        secrets.beginLogin(server: "web1")
        _ = try secrets.password(forServer: Self.uid)
        // The server refused it; the credential prompter asked the person once, and that worked.
        #expect(secrets.loginFinished(method: .password, typed: "new-pw")
                    == .login(.typedAfterVaultRejected(server: "web1"), vaultExists: true))
        secrets.rememberTyped(server: "web1")
        #expect(vault.contents.withLock { $0.entries[FakeVault.key(Self.uid, .password)] } == Array("new-pw".utf8))
    }

    @Test func nothingIsOfferedForAKeyLoginAHostNotSavedOrADeclinedVault() {
        let vault = FakeVault()
        let person = Person(answers: [nil])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(secrets.loginFinished(method: .keyFile(path: "/k"), typed: nil) == nil)
        secrets.beginLogin(server: nil)
        #expect(secrets.loginFinished(method: .password, typed: "pw") == nil)
        secrets.beginLogin(server: "web1")
        _ = try? secrets.password(forServer: Self.uid)
        #expect(secrets.loginFinished(method: .password, typed: "pw") == nil, "the person chose not to unlock")
    }

    @Test func withoutAVaultTheOfferSaysSoAndHoldsNothing() {
        let vault = FakeVault(exists: false)
        let person = Person(answers: [])
        defer { person.finish() }
        let secrets = Self.secrets(vault, person)
        secrets.beginLogin(server: "web1")
        #expect(secrets.loginFinished(method: .password, typed: "pw") == .login(.typed(server: "web1"),
                                                                                vaultExists: false))
        vault.contents.withLock { $0.exists = true }
        secrets.rememberTyped(server: "web1")
        #expect(Self.vaultEvents(person.posted.all).last
                    == .failed("The password typed for web1 is no longer held: nothing was stored."))
    }

    /// Through the session worker: a saved server's typed password brings the offer, after `connected`.
    @Test func theSessionWorkerPostsTheOfferAfterConnected() throws {
        let vault = FakeVault()
        let posted = Posted()
        let state = try TempDir()
        defer { state.cleanup() }
        let worker = SessionWorker(opener: SessionWorkerTests.FakeOpener(session: SessionWorkerTests.FakeSession(),
                                                                         askPassword: true),
                                   post: posted.post, log: AppLog(environment: ["XDG_STATE_HOME": state.path]),
                                   environment: ["HOME": "/nonexistent"], localUser: "me", vault: vault,
                                   serverUID: { $0 == "web1" ? Self.uid : nil })
        let server = Server(id: 1, name: "web1", host: "10.0.0.5", port: 22, user: "admin", auth: .password,
                            keyPath: nil, os: .linux, tags: [], note: "", createdAt: Date(), updatedAt: Date(),
                            lastConnectedAt: nil)
        worker.connect(ConnectionProfile(server: server), knownHosts: "")
        let asked = posted.wait { $0.contains { if case .prompt = $0 { true } else { false } } }
        guard case .prompt(let request)? = asked.last else {
            Issue.record("got \(asked)")
            return
        }
        worker.answer(id: request.id, .text(["s3cret"]))
        let all = posted.wait { !Self.vaultEvents($0).isEmpty }
        let connected = all.firstIndex { if case .connected = $0 { true } else { false } }
        let offer = all.firstIndex { if case .vault(.login(.typed(server: "web1"), vaultExists: true)) = $0 { true } else { false } }
        #expect(connected != nil && offer != nil && connected! < offer!)
        worker.disconnect()
    }
}
