import Operations
import AppCore
import Fleet
import Foundation
import Inventory
import SSH
import Synchronization
import Testing
@testable import App

/// The fleet worker against a fake executor: results as each server finishes, then the end of the run.
@Suite("FleetWorker")
struct FleetWorkerTests {
    /// Answers every target with its name on stdout and exit status 0, except `fails`.
    struct FakeExecutor: FleetExecutor {
        var fails: Set<String> = []
        func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                     cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
            throws(FleetFailure) -> CommandExit {
            Array("\(target.name): \(command)\n".utf8).withUnsafeBytes { output(.stdout, $0) }
            return CommandExit(status: fails.contains(target.name) ? 1 : 0, signal: nil)
        }
    }

    private func target(_ name: String, auth: AuthMethod) -> ConnectionProfile {
        ConnectionProfile(server: Server(id: 1, name: name, host: "10.0.0.5", port: 22, user: "admin", auth: auth,
                                     keyPath: nil, os: .linux, tags: [], note: "", createdAt: Date(),
                                     updatedAt: Date(), lastConnectedAt: nil))
    }

    @Test func eachServerStartsAndFinishesThenTheRunEnds() {
        let posted = Posted()
        let worker = FleetWorker(post: posted.post, environment: ["HOME": "/nonexistent"], localUser: "me",
                                 executor: FakeExecutor(fails: ["db"]))
        worker.run(id: 7, targets: [target("web", auth: .agent), target("db", auth: .agent)], command: "uptime",
                   knownHosts: "", parallel: 2, timeout: 10, password: nil)
        let messages = posted.wait { $0.contains { if case .fleetFinished = $0 { true } else { false } } }
        var results: [Int: FleetResult] = [:]
        for case .fleetResult(7, let index, let result) in messages { results[index] = result }
        #expect(results[0]?.status == .ok && results[0]?.stdoutText == "web: uptime\n")
        #expect(results[1]?.status == .failed && results[1]?.exitStatus == 1)
        #expect(messages.filter { if case .fleetStarted(7, _) = $0 { true } else { false } }.count == 2)
        // Each server's output is posted as it comes, before its result.
        let live = messages.compactMap { message -> (Int, [UInt8])? in
            if case .fleetOutput(7, let index, .stdout, let bytes) = message { return (index, bytes) }
            return nil
        }
        #expect(live.count == 2 && live.contains { $0.0 == 0 && $0.1 == Array("web: uptime\n".utf8) })
        let firstOutput = messages.firstIndex { if case .fleetOutput(7, 0, _, _) = $0 { true } else { false } }
        let result = messages.firstIndex { if case .fleetResult(7, 0, _) = $0 { true } else { false } }
        #expect(firstOutput != nil && result != nil && firstOutput! < result!)
        guard case .fleetFinished(7, _)? = messages.last else {
            Issue.record("the run ends last: \(messages)")
            return
        }
    }

    /// Waits for its cancel, then takes a while to end (as `SSHSession.run` does while it stops the remote command).
    final class SlowToStop: FleetExecutor {
        let stopped = Mutex(false)
        func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                     cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
            throws(FleetFailure) -> CommandExit {
            var probe = pollfd(fd: cancel.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&probe, 1, 10_000)
            usleep(600_000)
            stopped.withLock { $0 = true }
            throw FleetFailure(.command, SSHError(.cancelled, "", "The command was cancelled."))
        }
    }

    @Test func quittingWaitsForACancelledRunToStopItsServers() {
        let posted = Posted()
        let executor = SlowToStop()
        let worker = FleetWorker(post: posted.post, environment: ["HOME": "/nonexistent"], localUser: "me",
                                 executor: executor)
        worker.run(id: 1, targets: [target("web", auth: .agent)], command: "sleep 300", knownHosts: "", parallel: 1,
                   timeout: 60, password: nil)
        _ = posted.wait { $0.contains { if case .fleetStarted = $0 { true } else { false } } }
        worker.cancel()
        #expect(worker.waitUntilIdle(seconds: 3))
        #expect(executor.stopped.withLock { $0 }, "waited until the server's command was stopped")
    }

    /// Fails the check of `unknown` as an unknown host key, in the interface's words; the others pass.
    struct CheckProbe: FleetExecutor {
        func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                     cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
            throws(FleetFailure) -> CommandExit {
            guard target.name != "unknown" else {
                throw FleetFailure(.connect, SSHError(.hostKeyUnknown, "", "The host key of unknown is not known.",
                                                      remedy: .confirmHostKey(knownHostsFile: "/kh")))
            }
            return CommandExit(status: 0, signal: nil)
        }
    }

    @Test func theCheckBeforeThePasswordReportsByNameInTheInterfacesWords() {
        let posted = Posted()
        let worker = FleetWorker(post: posted.post, environment: ["HOME": "/nonexistent"], localUser: "me",
                                 checkExecutor: CheckProbe())
        worker.checkLogins(id: 3, targets: [target("web", auth: .agent), target("unknown", auth: .password),
                                            target("db", auth: .password)],
                           knownHosts: "", parallel: 4, timeout: 10)
        let messages = posted.wait { $0.contains { if case .fleetChecked = $0 { true } else { false } } }
        guard case .fleetChecked(3, let problems, let remaining)? = messages.last else {
            Issue.record("expected fleetChecked: \(messages)")
            return
        }
        #expect(remaining == 1)
        #expect(problems.keys.sorted() == ["unknown"])
        #expect(problems["unknown"]?.status == .hostKeyUnknown)
        let sentence = problems["unknown"]?.message ?? ""
        #expect(sentence.contains("press Enter on the server in the list") && !sentence.contains("--"), "\(sentence)")
    }

    @Test func thePasswordGoesOnlyToServersThatLogInWithOne() {
        let targets = FleetWorker.fleetTargets([target("web", auth: .agent), target("db", auth: .password)],
                                               knownHosts: "", password: "s3cret", environment: ["HOME": "/h"],
                                               localUser: "me")
        #expect(!targets[0].options.allowPassword && !targets[0].options.allowKeyboardInteractive)
        #expect(targets[0].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == nil)
        #expect(targets[1].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == "s3cret")
        let none = FleetWorker.fleetTargets([target("db", auth: .password)], knownHosts: "", password: nil,
                                            environment: ["HOME": "/h"], localUser: "me")
        #expect(none[0].problem == FleetTarget.Problem(.authFailed, "This server logs in with a password and none was given."))
    }

    /// A password server with a command source gets the command's output, one whose command fails is reported
    /// without a password, and an `ask` one gets the run's password.
    @Test func serversWithASourceOfTheirOwnGetTheirOwnSecret() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("essh-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: file, contents: Data("own\n".utf8), attributes: [.posixPermissions: 0o600])
        defer { try? FileManager.default.removeItem(atPath: file) }
        var own = target("own", auth: .password), failing = target("failing", auth: .password)
        own.credential = .command("/bin/cat \(file)")
        failing.credential = .command("/bin/false")
        let targets = FleetWorker.fleetTargets([own, failing, target("asked", auth: .password)], knownHosts: "",
                                               password: "shared", environment: ["HOME": "/h"], localUser: "me")
        #expect(targets[0].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == "own")
        #expect(targets[1].problem?.status == .authFailed)
        #expect(targets[1].problem?.message.contains("/bin/false exited with status 1") == true)
        #expect(targets[1].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == nil)
        #expect(targets[2].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == "shared")
    }
    /// Password servers whose source is the vault get each their own password from it, through one passphrase
    /// question for the whole run (not a connection's: it is the run's); a server the vault has nothing for is
    /// reported without a password, and the next run (the vault still open) asks nothing.
    @Test func vaultServersGetTheirOwnPasswordsWithOnePassphraseQuestion() {
        var web = target("web", auth: .password), db = target("db", auth: .password)
        var gone = target("gone", auth: .password)
        web.credential = .vault
        web.uid = "uid-web"
        db.credential = .vault
        db.uid = "uid-db"
        gone.credential = .vault
        gone.uid = "uid-gone"
        let vault = InterfaceSecretsTests.FakeVault(entries: [
            InterfaceSecretsTests.FakeVault.key("uid-web", .password): "web-pass",
            InterfaceSecretsTests.FakeVault.key("uid-db", .password): "db-pass",
        ])
        let person = InterfaceSecretsTests.Person(answers: ["correct horse"])
        defer { person.finish() }
        let secrets = InterfaceSecretsTests.secrets(vault, person).sibling(forRuns: true)
        let targets = FleetWorker.fleetTargets([web, db, gone], knownHosts: "", password: "shared",
                                               environment: ["HOME": "/h"], localUser: "me", vault: secrets)
        #expect(targets[0].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == "web-pass")
        #expect(targets[1].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == "db-pass")
        #expect(targets[2].problem?.status == .authFailed)
        #expect(targets[2].prompter.password(user: "admin", host: "10.0.0.5", attempt: 1) == nil, "never the shared one")
        #expect(person.questions.map(\.kind) == [.vaultPassphrase(attempt: 1, problem: nil, purpose: .fleetRun)])
        #expect(!person.questions[0].belongsToConnection)
        _ = FleetWorker.fleetTargets([web], knownHosts: "", password: nil, environment: ["HOME": "/h"],
                                     localUser: "me", vault: secrets)
        #expect(person.questions.count == 1)
        #expect(vault.unlocks == 1)
    }
}
