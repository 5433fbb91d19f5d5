import Fleet
import Foundation
import Inventory
import Operations
import SSH
import Synchronization
import Testing

/// A provider holding secrets by server id, counting what it was asked.
final class FakeSecrets: SecretProvider {
    let secrets: [String: String]
    let asked = Mutex<[String]>([])
    init(_ secrets: [String: String]) { self.secrets = secrets }

    private func secret(_ uid: String, _ what: String) throws(CredentialUnavailable) -> String {
        asked.withLock { $0.append("\(what) \(uid)") }
        guard let secret = secrets[uid] else { throw CredentialUnavailable("The vault has no password for \(uid).") }
        return secret
    }
    func password(forServer uid: String) throws(CredentialUnavailable) -> String { try secret(uid, "password") }
    func passphrase(forServer uid: String, keyFile: String) throws(CredentialUnavailable) -> String {
        try secret(uid, "passphrase")
    }
    func answers(forServer uid: String, prompts: [String]) throws(CredentialUnavailable) -> [String] {
        let secret = try secret(uid, "answers")
        return prompts.map { _ in secret }
    }
}

/// The person at the terminal, played: answers `typed` and counts the questions.
final class PlayedPerson: Prompter {
    let typed: String?
    let questions = Mutex<[String]>([])
    init(typed: String?) { self.typed = typed }
    func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision { .reject }
    func password(user: String, host: String, attempt: Int) -> String? {
        questions.withLock { $0.append("password \(host) \(attempt)") }
        return typed
    }
    func passphrase(keyFile: String, attempt: Int) -> String? {
        questions.withLock { $0.append("passphrase \(keyFile) \(attempt)") }
        return typed
    }
    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]? {
        questions.withLock { $0.append("kbd") }
        return typed.map { t in prompts.map { _ in t } }
    }
    var count: Int { questions.withLock { $0.count } }
}

/// What the prompter said to the person.
final class Notices: Sendable {
    let list = Mutex<[String]>([])
    var all: [String] { list.withLock { $0 } }
}

@Suite struct CredentialPrompterTests {
    let hidden: [(text: String, echo: Bool)] = [("Password: ", false)]

    func prompter(_ person: PlayedPerson, _ provider: (any SecretProvider)?, notices: Notices? = nil)
        -> CredentialPrompter
    {
        CredentialPrompter(wrapping: person, uid: "u1", host: "db1", keyFiles: ["/k/id"], provider: provider,
                           notice: { text in notices?.list.withLock { $0.append(text) } })
    }

    @Test func theStoredPasswordAnswersTheServersOwnHostOnly() {
        let person = PlayedPerson(typed: "typed")
        let p = prompter(person, FakeSecrets(["u1": "stored"]))
        #expect(p.password(user: "u", host: "bastion", attempt: 1) == "typed")
        #expect(p.password(user: "u", host: "db1", attempt: 1) == "stored")
        #expect(person.questions.withLock { $0 } == ["password bastion 1"])
        #expect(!p.storedSecretRejected)
        #expect(p.takeTypedPassword() == nil)
    }

    @Test func aRejectedStoredPasswordAsksOnceAndSetsTheFlag() {
        let person = PlayedPerson(typed: "typed")
        let notices = Notices()
        let p = prompter(person, FakeSecrets(["u1": "stale"]), notices: notices)
        #expect(p.password(user: "u", host: "db1", attempt: 1) == "stale")
        #expect(p.password(user: "u", host: "db1", attempt: 2) == "typed")
        #expect(p.password(user: "u", host: "db1", attempt: 3) == nil)
        #expect(person.count == 1)
        #expect(p.storedSecretRejected)
        #expect(notices.all.count == 1)
        // Typed, then taken once.
        #expect(p.takeTypedPassword() == "typed")
        #expect(p.takeTypedPassword() == nil)
    }

    @Test func keyboardInteractiveThenPasswordStillAsksOnlyOnce() {
        let person = PlayedPerson(typed: "wrong too")
        let p = prompter(person, FakeSecrets(["u1": "stale"]))
        #expect(p.keyboardInteractive(user: "u", host: "db1", name: "", instruction: "", prompts: hidden) == ["stale"])
        #expect(p.keyboardInteractive(user: "u", host: "db1", name: "", instruction: "", prompts: hidden)
                == ["wrong too"])
        #expect(p.keyboardInteractive(user: "u", host: "db1", name: "", instruction: "", prompts: hidden) == nil)
        #expect(p.password(user: "u", host: "db1", attempt: 1) == nil)
        #expect(person.count == 1 && p.storedSecretRejected)
    }

    @Test func aSecondRoundWithOtherPromptsIsNoRejection() {
        let person = PlayedPerson(typed: "123456")
        let p = prompter(person, FakeSecrets(["u1": "stored"]))
        #expect(p.keyboardInteractive(user: "u", host: "db1", name: "", instruction: "", prompts: hidden) == ["stored"])
        #expect(p.keyboardInteractive(user: "u", host: "db1", name: "", instruction: "",
                                      prompts: [("Verification code: ", false)]) == ["123456"])
        #expect(!p.storedSecretRejected)
    }

    @Test func anUnavailableSecretIsSaidAndThePersonAsked() {
        let person = PlayedPerson(typed: "typed")
        let notices = Notices()
        let p = prompter(person, FakeSecrets([:]), notices: notices)
        #expect(p.password(user: "u", host: "db1", attempt: 1) == "typed")
        #expect(p.password(user: "u", host: "db1", attempt: 2) == "typed")
        #expect(p.unavailable == CredentialUnavailable("The vault has no password for u1."))
        #expect(notices.all == ["The vault has no password for u1."])
        #expect(!p.storedSecretRejected)
    }

    @Test func thePassphraseOfTheServersOwnKeyComesFromTheProvider() {
        let person = PlayedPerson(typed: "typed")
        let p = prompter(person, FakeSecrets(["u1": "pp"]))
        #expect(p.passphrase(keyFile: "/other/key", attempt: 1) == "typed")
        #expect(p.passphrase(keyFile: "/k/id", attempt: 1) == "pp")
        #expect(p.passphrase(keyFile: "/k/id", attempt: 2) == "typed")
        #expect(p.passphrase(keyFile: "/k/id", attempt: 3) == nil)
        #expect(p.storedSecretRejected)
    }

    @Test func theStoredPassphraseServesTheSameKeyAgain() {
        let person = PlayedPerson(typed: "typed")
        let p = prompter(person, FakeSecrets(["u1": "pp"]))
        #expect(p.passphrase(keyFile: "/k/id", attempt: 1) == "pp")
        #expect(p.passphrase(keyFile: "/k/id", attempt: 1) == "pp", "the key used again (a hop, then the server)")
        #expect(person.count == 0 && !p.storedSecretRejected)
    }

    @Test func askIsTransparentButATypedPasswordIsOffered() {
        let person = PlayedPerson(typed: "typed")
        let p = prompter(person, nil as (any SecretProvider)?)
        for attempt in 1...3 { #expect(p.password(user: "u", host: "db1", attempt: attempt) == "typed") }
        #expect(person.questions.withLock { $0 } == ["password db1 1", "password db1 2", "password db1 3"])
        #expect(p.takeTypedPassword() == "typed")
    }
}

@Suite struct CredentialSourceCheckTests {
    @Test func aCommandsProgramMustBeAbsoluteOrOnThePath() {
        #expect(CredentialSourceCheck.parse("command:cat /f", searchPath: "/bin:/usr/bin") == .success(.command("cat /f")))
        #expect(CredentialSourceCheck.parse("command:/bin/cat /f", searchPath: "") == .success(.command("/bin/cat /f")))
        #expect(CredentialSourceCheck.parse("vault", searchPath: "") == .success(.vault))
        guard case .failure(let missing) = CredentialSourceCheck.parse("command:no-such-essh-prog x", searchPath: "/bin")
        else {
            Issue.record("a missing program was taken")
            return
        }
        #expect(missing.message == "'no-such-essh-prog' is not on PATH; give its absolute path.")
        guard case .failure(let relative) = CredentialSourceCheck.parse("command:bin/cat", searchPath: "/") else {
            Issue.record("a relative path was taken")
            return
        }
        #expect(relative.message == "'bin/cat' is a relative path; give an absolute one.")
    }

    @Test func theCommandProviderRunsTheCommandWithoutAShell() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("essh-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: path, contents: Data("pw 1\n".utf8), attributes: [.posixPermissions: 0o600])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = CommandSecretProvider(line: "/bin/cat '\(path)'")
        #expect(try provider.password(forServer: "x") == "pw 1")
        #expect(try provider.answers(forServer: "x", prompts: ["a", "b"]) == ["pw 1", "pw 1"])
        #expect(throws: CredentialUnavailable("The credential command failed: /bin/false exited with status 1 and gave no secret.")) {
            try CommandSecretProvider(line: "/bin/false").password(forServer: "x")
        }
    }
}

/// Fleet runs: each password server with a source of its own gets its own secret, or is reported without one.
@Suite struct FleetOwnSecretsTests {
    func saved(_ name: String, _ credential: CredentialSource, uid: String) -> ConnectionProfile {
        var server = Server(name: name, host: name, auth: .password)
        server.credential = credential
        server.uid = uid
        return ConnectionProfile(server: server)
    }

    @Test func eachServerGetsItsOwnSecretAndOneWithoutIsNotTried() {
        let profiles = [saved("a", .vault, uid: "ua"), saved("b", .vault, uid: "ub"), saved("c", .ask, uid: "uc"),
                        saved("d", .vault, uid: "missing")]
        let vault = FakeSecrets(["ua": "pa", "ub": "pb"])
        let secrets = FleetTargets.ownSecrets(profiles) { CredentialSourceCheck.provider($0, vault: vault) }
        #expect(vault.asked.withLock { $0 } == ["password ua", "password ub", "password missing"])
        #expect(FleetTargets.needsPassword(profiles))
        let shared = FleetTargets.Password("shared", fromFile: false)
        let targets = profiles.indices.map { i in
            FleetTargets.target(profiles[i], name: profiles[i].name ?? "",
                                options: .success(ConnectOptions(host: profiles[i].host, user: "u",
                                                                 knownHostsFile: "/kh")),
                                password: shared, ownSecret: secrets[i])
        }
        #expect(targets[0].prompter.password(user: "u", host: "a", attempt: 1) == "pa")
        #expect(targets[1].prompter.password(user: "u", host: "b", attempt: 1) == "pb")
        #expect(targets[2].prompter.password(user: "u", host: "c", attempt: 1) == "shared")
        #expect(targets[3].problem == FleetTarget.Problem(.authFailed,
                                                          "No password for this server: The vault has no password for missing."))
        #expect(targets[3].prompter.password(user: "u", host: "d", attempt: 1) == nil)
    }

    @Test func aServerWithAConfigurationProblemIsNotRead() throws {
        let profiles = [saved("a", .vault, uid: "ua"), saved("b", .vault, uid: "ub")]
        let broken = ConnectionProfile(server: Server(name: "b", host: "b", auth: .key, keyPath: "/nonexistent/key"))
        let problem: ConnectionProblem
        do {
            _ = try broken.options(context: .init(environment: ["HOME": "/nonexistent"], localUser: "u"))
            Issue.record("a missing key must be a problem")
            return
        } catch {
            problem = error
        }
        let vault = FakeSecrets(["ua": "pa", "ub": "pb"])
        let secrets = FleetTargets.ownSecrets(profiles, options: [
            .success(ConnectOptions(host: "a", user: "u", knownHostsFile: "/kh")), .failure(problem),
        ]) { CredentialSourceCheck.provider($0, vault: vault) }
        #expect(vault.asked.withLock { $0 } == ["password ua"])
        #expect(secrets.keys.sorted() == [0])
    }

    @Test func onlyAskServersNeedTheSharedPassword() {
        #expect(!FleetTargets.needsPassword([saved("a", .vault, uid: "ua"), saved("b", .command("/bin/cat f"), uid: "ub")]))
    }
}
