import Foundation
import Inventory
import Operations
import SSH
import Synchronization
import Testing
import TestSupport
@testable import App
@testable import AppCore

/// The key-install worker against a real sshd whose logins get a home of this test's own as `$HOME` (`SetEnv
/// HOME`, a `TestUserFolder`, as `KeyCommandTests`), so the shared test user's own authorized_keys is never touched.
/// The questions go through the real `PromptBroker`, answered as the prompt overlay would.
@Suite("Key install worker: against the harness")
struct KeyInstallWorkerTests {
    final class Fixture {
        let s: TestServers
        let home: TestUserFolder
        let dir: TempDir
        let sshd: ExtraSSHD
        let inventory: Inventory
        let posted = Posted()
        let broker: PromptBroker
        let worker: KeyInstallWorker

        /// `makeKey`: a key pair at ~/.ssh/id_ed25519 of the local scratch home. `password`: what the password
        /// question is answered.
        init(makeKey: Bool = true, password: String? = nil) throws {
            s = try TestServers.require()
            home = try TestUserFolder(servers: s)
            dir = try TempDir()
            sshd = try ExtraSSHD(servers: s, extra: ["SetEnv HOME=\(home.path)"],
                                 authorizedKeys: home.file(".ssh/authorized_keys"))
            try FileManager.default.createDirectory(atPath: dir.file("home/.ssh"), withIntermediateDirectories: true)
            if makeKey {
                let made = try Binary.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "mine",
                                                                  "-f", dir.file("home/.ssh/id_ed25519")])
                #expect(made.status == 0, "\(made.err)")
            }
            inventory = try Inventory()
            let posted = posted
            let answer = password ?? s.password
            let box = BrokerBox()
            let made = PromptBroker(post: { message in
                posted.post(message)
                guard case .prompt(let request) = message else { return }
                // Answered from another thread, as the UI loop does.
                DispatchQueue.global().async {
                    switch request.kind {
                    case .hostKey: box.broker?.answer(id: request.id, .hostKey(.acceptAndSave))
                    case .password: box.broker?.answer(id: request.id, .text([answer]))
                    default: box.broker?.answer(id: request.id, .text(nil))
                    }
                }
            })
            box.broker = made
            broker = made
            worker = KeyInstallWorker(post: posted.post, environment: ["HOME": dir.file("home")], localUser: s.user,
                                      prompter: broker, resetPrompts: { made.reset() },
                                      cancelPrompts: { made.cancelAll() }, inventory: inventory)
        }

        deinit {
            sshd.stop()
            home.cleanup()
            dir.cleanup()
        }

        /// Saves `name` at this sshd logging in by password, and returns it as the interface has it.
        func save(_ name: String = "box") throws -> Server {
            _ = try inventory.addServer(ServerDraft(name: name, host: sshd.host, port: sshd.port, user: s.user,
                                                auth: .password))
            return try #require(try inventory.findServer(named: name))
        }

        /// Runs the install and returns its events once it ended.
        func install(_ server: Server) -> [KeyInstallEvent] {
            worker.install(ConnectionProfile(server: server), knownHosts: dir.file("known_hosts"))
            let all = posted.wait(seconds: 60) { $0.contains { Self.ended($0) } }
            return all.compactMap { if case .keyInstall(let event) = $0 { return event } else { return nil } }
        }

        static func ended(_ message: Message) -> Bool {
            switch message {
            case .keyInstall(.installed), .keyInstall(.failed): return true
            default: return false
            }
        }

        var authorizedKeys: String? { try? String(contentsOfFile: home.file(".ssh/authorized_keys"), encoding: .utf8) }

        var publicKey: String {
            ((try? String(contentsOfFile: dir.file("home/.ssh/id_ed25519.pub"), encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .newlines)
        }
    }

    /// The broker, for the answers its own `post` gives (set once it exists).
    final class BrokerBox: Sendable {
        private let held = Mutex<PromptBroker?>(nil)
        var broker: PromptBroker? {
            get { held.withLock { $0 } }
            set { held.withLock { $0 = newValue } }
        }
    }

    /// A server whose password comes from a command logs in with it, as a session does: the person is not asked
    /// (the question's answer here is wrong, so a question would have failed the login).
    @Test func aServersCredentialSourceGivesTheInstallsPassword() throws {
        let f = try Fixture(password: "not-the-password")
        let file = f.dir.file("box.pw")
        FileManager.default.createFile(atPath: file, contents: Data((f.s.password + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        _ = try f.inventory.addServer(ServerDraft(name: "box", host: f.sshd.host, port: f.sshd.port, user: f.s.user,
                                                  auth: .password, credential: .command("/bin/cat \(file)")))
        let server = try #require(try f.inventory.findServer(named: "box"))
        let events = f.install(server)
        #expect(events.last == .installed(offer: .keyFile(f.dir.file("home/.ssh/id_ed25519"))), "\(events)")
        #expect(f.authorizedKeys == f.publicKey + "\n")
        let asked = f.posted.all.contains { message in
            if case .prompt(let request) = message, case .password = request.kind { return true }
            return false
        }
        #expect(!asked, "the password came from the server's command")
    }

    @Test func installsByPasswordVerifiesRemembersAndOffersTheSwitch() throws {
        let f = try Fixture()
        let server = try f.save()
        let events = f.install(server)
        let key = f.dir.file("home/.ssh/id_ed25519")
        #expect(events.last == .installed(offer: .keyFile(key)), "\(events)")
        let lines = events.compactMap { if case .progress(let line) = $0 { return line } else { return nil } }
        #expect(lines.first?.hasPrefix("The key: SHA256:") == true, "\(lines)")
        #expect(lines.contains("Logged in to box with the password."), "\(lines)")
        #expect(lines.contains("Made ~/.ssh (mode 700)."), "\(lines)")
        #expect(lines.contains("Appended the key to ~/.ssh/authorized_keys."), "\(lines)")
        #expect(lines.last?.hasPrefix("Logged in again with the key \(key) (SHA256:") == true, "\(lines)")
        #expect(f.authorizedKeys == f.publicKey + "\n")
        // The identity that logged in is remembered; the login itself is unchanged (the switch is the person's).
        let saved = try #require(try f.inventory.findServer(named: "box"))
        #expect(saved.lastIdentity == PreferredIdentity.keyFile(path: key).storedText)
        #expect(saved.auth == .password)
        // The password went through the broker's question (asked once), the host key too.
        let prompts = f.posted.all.filter { if case .prompt = $0 { return true } else { return false } }
        #expect(prompts.count == 2, "\(prompts)")
    }

    /// A connection given up on the Connecting screen leaves the broker refusing its questions; the install asks
    /// again all the same.
    @Test func aConnectionGivenUpBeforeDoesNotSilenceTheQuestions() throws {
        let f = try Fixture()
        f.broker.cancelAll()
        let events = f.install(try f.save())
        #expect(events.last == .installed(offer: .keyFile(f.dir.file("home/.ssh/id_ed25519"))), "\(events)")
        #expect(f.authorizedKeys == f.publicKey + "\n")
    }

    @Test func aRefusedPasswordIsASentenceAndNothingIsWritten() throws {
        let f = try Fixture(password: "wrong password")
        let events = f.install(try f.save())
        guard case .failed(let sentence)? = events.last else {
            Issue.record("expected a failure, got \(events)")
            return
        }
        #expect(sentence.hasPrefix("Could not log in to box:"), "\(sentence)")
        #expect(f.authorizedKeys == nil)
        #expect(try f.inventory.findServer(named: "box")?.lastIdentity == nil)
    }

    @Test func noPublicKeyIsSaidBeforeAnyLogin() throws {
        let f = try Fixture(makeKey: false)
        let events = f.install(try f.save())
        #expect(events == [.failed("No public key to install: none of ~/.ssh/id_ed25519.pub, id_ecdsa.pub, "
                                   + "id_rsa.pub exists. Make one with essh key generate.")])
        #expect(f.posted.all.allSatisfy { if case .prompt = $0 { return false } else { return true } })
    }

    @Test func aKeyWithoutItsPrivateHalfAndNoAgentIsRefused() throws {
        let f = try Fixture()
        try FileManager.default.removeItem(atPath: f.dir.file("home/.ssh/id_ed25519"))
        let events = f.install(try f.save())
        guard case .failed(let sentence)? = events.last, events.count == 1 else {
            Issue.record("expected one failure, got \(events)")
            return
        }
        #expect(sentence.contains("is missing and no ssh-agent runs"), "\(sentence)")
        #expect(f.authorizedKeys == nil)
    }
}
