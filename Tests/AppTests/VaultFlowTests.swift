import AppCore
import Foundation
import Inventory
import SSH
import Synchronization
import Testing
import TestSupport
import TUIKit
@testable import App

/// The vault through the whole interface — the loop, `LiveEffects`, the session worker, `PromptBroker` and
/// `InterfaceSecrets` — with a fake vault and a fake opener that asks the secrets first and the person second (as the
/// credential prompter does): the first login asks the vault passphrase once, the second asks nothing, `L` locks and
/// the next login asks again; Esc there falls back to the server's password.
@Suite("The vault through the interface")
struct VaultFlowTests {
    /// Logs in with the vault's password when it can be had, else asks the person (as `CredentialPrompter` over
    /// `InterfaceSecrets` does, for an `ask` server here); records where each password came from. The last test
    /// goes through the real `CredentialPrompter`.
    final class VaultFirstOpener: SessionOpener {
        let secrets = Mutex<InterfaceSecrets?>(nil)
        let sources = Mutex<[String]>([])

        func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
                  onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession {
            onStage(.authenticating(method: "password"))
            let provider: InterfaceSecrets? = secrets.withLock { current in current }
            let fromVault: String?
            do throws(InterfaceSecrets.Unavailable) {
                fromVault = try provider?.password(forServer: "uid-web1")
            } catch {
                fromVault = nil
            }
            if let fromVault {
                sources.withLock { $0.append("vault") }
                guard fromVault == "s3cret" else { throw SSHError(.authenticationFailed, "vault", "Refused.") }
            } else {
                sources.withLock { $0.append("typed") }
                guard prompter.password(user: options.user, host: options.host, attempt: 1) == "s3cret" else {
                    throw SSHError(.authenticationFailed, "typed", "Refused.")
                }
            }
            return SessionWorkerTests.FakeSession()
        }
    }

    /// Presses each key once the screen shows its text; after a deadline it leaves whatever is open (Esc closes a
    /// question, F10 ends a session, q quits), so a failing flow ends instead of waiting at a question for ever.
    final class FlowTerminal: Terminal {
        let size = Size(width: 80, height: 24)
        private(set) var frames: [[String]] = []
        private var script: [(waitFor: String, key: Key)]
        private let deadline = Date().addingTimeInterval(15)
        private(set) var timedOut = false
        private var leaving = 0
        private let wakes = TestTerminal(size: Size(width: 1, height: 1))

        init(_ script: [(waitFor: String, key: Key)]) { self.script = script }

        func draw(_ buffer: Buffer, cursor: Point?) throws { frames.append(buffer.lines()) }

        func poll(timeout: Duration?) throws -> InputEvent? {
            if Date() > deadline {
                timedOut = true
                leaving += 1
                usleep(20_000)
                return .key([Key.escape, .function(10), .character("q")][leaving % 3])
            }
            if let step = script.first, frames.last?.contains(where: { $0.contains(step.waitFor) }) == true {
                script.removeFirst()
                return .key(step.key)
            }
            usleep(5_000)
            return nil
        }

        var waker: any TerminalWaker { wakes.waker }
        func suspend<T>(_ body: () throws -> T) throws -> T { try body() }
        func stopProcess() throws {}
        func bell() {}
        func setMouseReporting(_ on: Bool) {}
        func shutdown() {}
    }

    @Test func firstUseAsksOnceTheSecondConnectionNothingAndAfterLockingItAsksAgain() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web1", host: "127.0.0.1", port: 1, user: "nobody", auth: .password,
                                           os: .linux))
        let vault = InterfaceSecretsTests.FakeVault(entries: [
            InterfaceSecretsTests.FakeVault.key("uid-web1", .password): "s3cret",
        ])
        func typing(_ text: String, when shown: String) -> [(waitFor: String, key: Key)] {
            text.map { (waitFor: shown, key: Key.character($0)) }
        }
        let script: [(waitFor: String, key: Key)] = [(waitFor: "web1", key: .enter)]
            + typing("correct horse", when: "Vault passphrase:")
            + [(waitFor: "Vault passphrase:", key: .enter),
               (waitFor: "password (vault)", key: .function(10)),
               (waitFor: "Session summary", key: .enter),
               (waitFor: "vault unlocked", key: .enter),
               (waitFor: "password (vault)", key: .function(10)),
               (waitFor: "Session summary", key: .enter),
               (waitFor: "vault unlocked", key: .character("L")),
               (waitFor: "vault locked", key: .enter),
               (waitFor: "Vault passphrase:", key: .escape),
               (waitFor: "Password for", key: .character("s"))]
            + typing("3cret", when: "Password for")
            + [(waitFor: "Password for", key: .enter),
               (waitFor: "connected 00:", key: .function(10)),
               (waitFor: "Session summary", key: .enter),
               (waitFor: "eSSH — Servers", key: .character("q"))]
        let terminal = FlowTerminal(script)
        let queue = MessageQueue(waker: terminal.waker)
        let environment = ["HOME": dir.path, "XDG_STATE_HOME": dir.file("state")]
        let opener = VaultFirstOpener()
        let live = LiveEffects(inventory: inventory, queue: queue, environment: environment, localUser: "me",
                               opener: opener, vault: vault, serverUID: { $0 == "web1" ? "uid-web1" : nil })
        opener.secrets.withLock { $0 = live.session.secrets }
        let runtime = AppRuntime(terminal: terminal, effects: live, queue: queue, environment: environment,
                                 localUser: "me", unicode: true)
        try runtime.run()
        #expect(!terminal.timedOut, "last screen: \(terminal.frames.last ?? [])")
        #expect(opener.sources.withLock { $0 } == ["vault", "vault", "typed"])
        #expect(vault.unlocks == 1, "asked once until locked; Esc then left it locked")
        let asked = terminal.frames.filter { $0.contains { $0.contains("Vault passphrase:") } }
        #expect(!asked.isEmpty)
        #expect(!terminal.frames.joined().joined().contains("correct horse"), "never drawn")
        // Declined during that login: no offer to remember the typed password.
        #expect(!terminal.frames.contains { $0.contains { $0.contains("Remember this password") } })
        #expect(!vault.isUnlocked, "quitting leaves it locked")
    }
    /// Logs in with the first password the prompter gives that is `accepted` (at most 3 asked, as libssh2's
    /// password loop), recording each one given.
    final class PasswordOpener: SessionOpener {
        let accepted: String
        let given = Mutex<[String]>([])

        init(accepted: String) { self.accepted = accepted }

        func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
                  onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession {
            onStage(.authenticating(method: "password"))
            for attempt in 1...3 {
                guard let password = prompter.password(user: options.user, host: options.host, attempt: attempt) else {
                    break
                }
                given.withLock { $0.append(password) }
                if password == accepted { return SessionWorkerTests.FakeSession() }
            }
            throw SSHError(.authenticationFailed, "password", "Refused.")
        }
    }

    /// A saved server whose source is the vault, through the real `CredentialPrompter` over `InterfaceSecrets`: the
    /// vault's password is refused, the person is asked once, the offer to update the vault is taken, and the next
    /// connection logs in with the updated password without a question.
    @Test func aVaultServersRefusedPasswordIsAskedOnceThenUpdatedAndUsed() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web1", host: "127.0.0.1", port: 1, user: "nobody", auth: .password,
                                           os: .linux, credential: .vault))
        let uid = try #require(try inventory.findServer(named: "web1")).uid
        let vault = InterfaceSecretsTests.FakeVault(entries: [
            InterfaceSecretsTests.FakeVault.key(uid, .password): "old-pass",
        ])
        func typing(_ text: String, when shown: String) -> [(waitFor: String, key: Key)] {
            text.map { (waitFor: shown, key: Key.character($0)) }
        }
        let script: [(waitFor: String, key: Key)] = [(waitFor: "web1", key: .enter)]
            + typing("correct horse", when: "Vault passphrase:")
            + [(waitFor: "Vault passphrase:", key: .enter)]
            + typing("s3cret", when: "Password for")
            + [(waitFor: "Password for", key: .enter),
               (waitFor: "Update the vault?", key: .character("y")),
               (waitFor: "is in the vault now", key: .function(10)),
               (waitFor: "Session summary", key: .enter),
               (waitFor: "vault unlocked", key: .enter),
               (waitFor: "password (vault)", key: .function(10)),
               (waitFor: "Session summary", key: .enter),
               (waitFor: "eSSH — Servers", key: .character("q"))]
        let terminal = FlowTerminal(script)
        let queue = MessageQueue(waker: terminal.waker)
        let environment = ["HOME": dir.path, "XDG_STATE_HOME": dir.file("state")]
        let opener = PasswordOpener(accepted: "s3cret")
        let live = LiveEffects(inventory: inventory, queue: queue, environment: environment, localUser: "me",
                               opener: opener, vault: vault, serverUID: { try inventory.findServer(named: $0)?.uid })
        let runtime = AppRuntime(terminal: terminal, effects: live, queue: queue, environment: environment,
                                 localUser: "me", unicode: true)
        try runtime.run()
        #expect(!terminal.timedOut, "last screen: \(terminal.frames.last ?? [])")
        #expect(opener.given.withLock { $0 } == ["old-pass", "s3cret", "s3cret"],
                "the refused stored password once, the typed one, then the updated stored one")
        #expect(vault.unlocks == 1)
        #expect(vault.contents.withLock { $0.remembered.map(\.uid) } == [uid])
        #expect(terminal.frames.contains { $0.contains { $0.contains("Wrong password, try again") } },
                "the question after the refusal says so")
        #expect(!terminal.frames.joined().joined().contains("s3cret"), "never drawn")
    }
}
