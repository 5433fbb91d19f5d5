import Basics
import Operations
import AppCore
import Foundation
import InteractiveShell
import Inventory
import SSH
import Synchronization
import TestSupport
import Testing
@testable import App

/// The session worker against a fake session opener: no network, the same messages as with a real server.
@Suite("SessionWorker")
final class SessionWorkerTests {
    /// The log's folder ($XDG_STATE_HOME): a private temporary one, never a path outside the test's own.
    private let state = try! TempDir()

    deinit { state.cleanup() }

    /// A session that answers `run` with canned output and records what happened to it.
    final class FakeSession: OpenSession {
        let output: [UInt8]
        let exit: CommandExit
        let keepaliveFails: Bool
        /// What `start` answers (or throws).
        let shell: Result<ShellMode, SSHError>
        /// What `run` says about the shell before it returns.
        let notice: ShellNotice?
        private let events = Mutex<[String]>([])
        var log: [String] { events.withLock { $0 } }
        /// When set, each keepalive waits for a signal after it is logged (a check still running on the queue).
        var keepaliveGate: DispatchSemaphore? {
            get { gate.withLock { $0 } }
            set { gate.withLock { $0 = newValue } }
        }
        private let gate = Mutex<DispatchSemaphore?>(nil)

        /// Who logged in.
        let loginIdentity: LoginIdentity

        init(output: String = "", exit: CommandExit = CommandExit(status: 0, signal: nil), keepaliveFails: Bool = false,
             shell: Result<ShellMode, SSHError> = .success(.persistent), notice: ShellNotice? = nil,
             identity: LoginIdentity = .password) {
            loginIdentity = identity
            self.output = Array(output.utf8)
            self.exit = exit
            self.keepaliveFails = keepaliveFails
            self.shell = shell
            self.notice = notice
        }

        func start(cancel: Cancellation?) throws(SSHError) -> ShellMode {
            events.withLock { $0.append("start shell") }
            return try shell.get()
        }

        var isConnected: Bool { !log.contains("disconnect") }
        var logDescription: String { "(127.0.0.1:22), SSH-2.0-Fake, host key SHA256:fake" }

        func run(_ command: String, timeout: Double?, cancel: Cancellation?, stop: StopEscalation,
                 output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void,
                 notice: (ShellNotice) -> Void) throws(SSHError) -> CommandExit {
            events.withLock { $0.append("run \(command)") }
            self.output.withUnsafeBytes { output(.stdout, $0) }
            if let said = self.notice { notice(said) }
            return exit
        }

        func capture(_ command: String, input: CommandInput, timeout: Double?, cancel: Cancellation?)
            throws(SSHError) -> (stdout: [UInt8], stderr: [UInt8], exit: CommandExit) {
            events.withLock { $0.append("capture \(command)") }
            return (Array("Linux\n".utf8), [], CommandExit(status: 0, signal: nil))
        }

        func keepalive() throws(SSHError) {
            events.withLock { $0.append("keepalive") }
            gate.withLock { $0 }?.wait()
            if keepaliveFails { throw SSHError(.disconnected, "keepalive", "The server stopped answering.") }
        }

        func disconnect() { events.withLock { $0.append("disconnect") } }

        func interactiveShell() -> ShellOutcome {
            events.withLock { $0.append("shell") }
            return ShellOutcome(end: .exited(CommandExit(status: 3, signal: nil)), duration: 1)
        }

        func runOnTerminal(_ command: String) -> ShellOutcome {
            events.withLock { $0.append("terminal \(command)") }
            return ShellOutcome(end: .exited(CommandExit(status: 0, signal: nil)), duration: 2)
        }
    }

    /// Opens `session` after asking the prompter for a password (as a password login would), or fails.
    final class FakeOpener: SessionOpener {
        let session: FakeSession
        let askPassword: Bool
        let failure: SSHError?
        let opened = Mutex<[ConnectOptions]>([])

        init(session: FakeSession, askPassword: Bool = false, failure: SSHError? = nil) {
            self.session = session
            self.askPassword = askPassword
            self.failure = failure
        }

        func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
                  onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession {
            opened.withLock { $0.append(options) }
            onStage(.resolving)
            if let failure { throw failure }
            if askPassword {
                guard prompter.password(user: options.user, host: options.host, attempt: 1) == "s3cret" else {
                    throw SSHError(.authenticationFailed, "no password", "The server refused the login.")
                }
            }
            return session
        }
    }

    private func worker(_ opener: FakeOpener, _ posted: Posted, home: String = "/nonexistent") -> SessionWorker {
        SessionWorker(opener: opener, post: posted.post, log: AppLog(environment: ["XDG_STATE_HOME": state.path]),
                      environment: ["HOME": home], localUser: "me")
    }

    private func target(auth: AuthMethod = .agent, os: ServerOS = .linux) -> ConnectionProfile {
        ConnectionProfile(server: Server(id: 1, name: "web1", host: "10.0.0.5", port: 22, user: "admin", auth: auth,
                                     keyPath: auth == .key ? "~/.ssh/missing" : nil, os: os, tags: [], note: "",
                                     createdAt: Date(), updatedAt: Date(), lastConnectedAt: nil))
    }

    private static func isConnected(_ messages: [Message]) -> Bool {
        messages.contains(where: isConnectedMessage)
    }

    private static func isConnectedMessage(_ message: Message) -> Bool {
        if case .connected = message { true } else { false }
    }

    private static func shellModes(_ messages: [Message]) -> [(ShellMode, String?)] {
        messages.compactMap { if case .shellMode(let mode, let notice) = $0 { (mode, notice) } else { nil } }
    }

    /// The agent key that logged in to a saved server is remembered in the inventory (offered first next time); a
    /// password login leaves what is stored.
    @Test func theKeyThatLoggedInIsRemembered() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web1", host: "10.0.0.5", port: 22, user: "admin", auth: .agent,
                                           os: .linux))
        let saved = try #require(try inventory.findServer(named: "web1"))
        let posted = Posted()
        let key = LoginIdentity.agentKey(comment: "me@laptop", fingerprint: "SHA256:abc")
        let worker = SessionWorker(opener: FakeOpener(session: FakeSession(identity: key)), post: posted.post,
                                   log: AppLog(environment: ["XDG_STATE_HOME": state.path]),
                                   environment: ["HOME": "/nonexistent"], localUser: "me", inventory: inventory)
        worker.connect(ConnectionProfile(server: saved), knownHosts: "")
        _ = posted.wait { !Self.shellModes($0).isEmpty }
        #expect(try inventory.findServer(named: "web1")?.lastIdentity == key.preferred?.storedText)
        #expect(key.preferred != nil)

        let passwordWorker = SessionWorker(opener: FakeOpener(session: FakeSession()), post: posted.post,
                                           log: AppLog(environment: ["XDG_STATE_HOME": state.path]),
                                           environment: ["HOME": "/nonexistent"], localUser: "me",
                                           inventory: inventory)
        passwordWorker.connect(ConnectionProfile(server: try #require(try inventory.findServer(named: "web1"))),
                               knownHosts: "")
        passwordWorker.waitUntilIdle(seconds: 5)
        #expect(try inventory.findServer(named: "web1")?.lastIdentity == key.preferred?.storedText)
    }

    @Test func theShellStartsAfterConnectingAndTheHeaderLearnsItsMode() {
        let posted = Posted()
        let worker = worker(FakeOpener(session: FakeSession()), posted)
        worker.connect(target(), knownHosts: "")
        let messages = posted.wait { !Self.shellModes($0).isEmpty }
        let connected = messages.firstIndex(where: Self.isConnectedMessage)
        let mode = messages.firstIndex { if case .shellMode = $0 { true } else { false } }
        #expect(connected != nil && mode != nil && connected! < mode!)
        #expect(Self.shellModes(messages).first?.0 == .persistent)
        #expect(Self.shellModes(messages).first?.1 == nil)
    }

    @Test func withoutAShellThatLastsTheSessionSaysSoAndWhy() {
        let posted = Posted()
        let session = FakeSession(shell: .success(.onePerCommand(reason: "it ended at once (exit 1)")))
        let worker = worker(FakeOpener(session: session), posted)
        worker.connect(target(), knownHosts: "")
        let said = Self.shellModes(posted.wait { !Self.shellModes($0).isEmpty }).first
        #expect(said?.0 == .onePerCommand(reason: "it ended at once (exit 1)"))
        #expect(said?.1 == "Each command runs in a shell of its own here, so cd and variables do not carry over: no "
                + "shell that lasts (it ended at once (exit 1))")
    }

    @Test func aConnectionLostWhileTheShellStartsEndsTheSession() {
        let posted = Posted()
        let gone = SSHError(.disconnected, "eof", "The connection was closed by the server while starting the shell.")
        let worker = worker(FakeOpener(session: FakeSession(shell: .failure(gone))), posted)
        worker.connect(target(), knownHosts: "")
        let lost = posted.wait { $0.contains { if case .connectionLost = $0 { true } else { false } } }
        #expect(lost.contains(where: Self.isConnectedMessage))
        #expect(lost.contains {
            if case .connectionLost("The connection was closed by the server while starting the shell.", _) = $0 {
                true
            } else { false }
        })
        #expect(!lost.contains { if case .connectFailed = $0 { true } else { false } })
    }

    /// A notice (the shell ended, a fresh one started) comes after the command's result, so the output reads in order.
    @Test func aShellNoticeFollowsTheCommandsResult() {
        let notice = ShellNotice(text: "The shell ended (exit 3): a new one started; cd, variables, aliases are reset",
                                 mode: .persistent)
        let posted = Posted()
        let worker = worker(FakeOpener(session: FakeSession(exit: CommandExit(status: 3, signal: nil), notice: notice)),
                            posted)
        worker.connect(target(), knownHosts: "")
        posted.wait { !Self.shellModes($0).isEmpty }
        worker.run(id: 2, command: "exit 3")
        let messages = posted.wait { Self.shellModes($0).count == 2 }
        let finished = messages.firstIndex { if case .commandFinished(2, 3, nil, _) = $0 { true } else { false } }
        let said = messages.lastIndex { if case .shellMode(.persistent, notice.text?) = $0 { true } else { false } }
        #expect(finished != nil && said != nil && finished! < said!, "\(messages)")
    }

    @Test func connectsRunsACommandAndDisconnects() {
        let session = FakeSession(output: "héllo\n", exit: CommandExit(status: 2, signal: nil))
        let posted = Posted()
        let worker = worker(FakeOpener(session: session), posted)
        worker.connect(target(), knownHosts: "")
        let messages = posted.wait(until: Self.isConnected)
        guard case .connectStage("Looking up the host")? = messages.first,
              case .connected(nil, .password?, _)? = messages.first(where: Self.isConnectedMessage) else {
            Issue.record("got \(messages)")
            return
        }
        worker.run(id: 4, command: "echo héllo")
        let ran = posted.wait { $0.contains { if case .commandFinished = $0 { true } else { false } } }
        #expect(ran.contains { if case .output(4, Array("héllo\n".utf8)) = $0 { true } else { false } })
        #expect(ran.contains { if case .commandFinished(4, 2, nil, _) = $0 { true } else { false } })
        worker.disconnect()
        worker.waitUntilIdle(seconds: 5)
        #expect(session.log == ["start shell", "run echo héllo", "disconnect"])
    }

    @Test func theOSIsDetectedWhenTheServerSaysAuto() {
        let session = FakeSession()
        let posted = Posted()
        let worker = worker(FakeOpener(session: session), posted)
        worker.connect(target(os: .auto), knownHosts: "")
        let messages = posted.wait(until: Self.isConnected)
        #expect(messages.contains { if case .connectStage("Detecting the operating system") = $0 { true } else { false } })
        guard case .connected(.linux, _, _)? = messages.first(where: Self.isConnectedMessage) else {
            Issue.record("got \(messages)")
            return
        }
    }

    @Test func aPasswordQuestionReachesTheUIAndTheAnswerGoesBack() {
        let posted = Posted()
        let worker = worker(FakeOpener(session: FakeSession(), askPassword: true), posted)
        worker.connect(target(auth: .password), knownHosts: "")
        let asked = posted.wait { $0.contains { if case .prompt = $0 { true } else { false } } }
        guard case .prompt(let request)? = asked.last,
              case .password(user: "admin", host: "10.0.0.5", attempt: 1) = request.kind else {
            Issue.record("got \(asked)")
            return
        }
        worker.answer(id: request.id, .text(["s3cret"]))
        #expect(Self.isConnected(posted.wait(until: Self.isConnected)))
    }

    @Test func failuresSayWhy() {
        let posted = Posted()
        let refused = SSHError(.refused, "connect", "10.0.0.5 refused the connection on port 22.")
        let worker = worker(FakeOpener(session: FakeSession(), failure: refused), posted)
        worker.connect(target(), knownHosts: "")
        let failed = posted.wait { $0.contains { if case .connectFailed = $0 { true } else { false } } }
        #expect(failed.contains { if case .connectFailed("10.0.0.5 refused the connection on port 22.") = $0 { true } else { false } })
        // A key file that cannot be read is said before anything is tried.
        let opener = FakeOpener(session: FakeSession())
        let keyed = Posted()
        self.worker(opener, keyed, home: "/nonexistent").connect(target(auth: .key), knownHosts: "")
        let said = keyed.wait { !$0.isEmpty }
        guard case .connectFailed(let reason)? = said.first else {
            Issue.record("got \(said)")
            return
        }
        #expect(reason == "The key file /nonexistent/.ssh/missing does not exist or cannot be read: edit the server (e).")
        #expect(opener.opened.withLock { $0.isEmpty })
        // No session: a command fails saying so.
        let none = Posted()
        self.worker(opener, none).run(id: 1, command: "id")
        let notConnected = none.wait { !$0.isEmpty }
        guard case .commandFailed(1, "not connected", true, _)? = notConnected.first else {
            Issue.record("got \(notConnected)")
            return
        }
    }

    @Test func aFailedKeepaliveIsALostConnectionAndTheShellRunsOnTheSession() {
        let session = FakeSession(keepaliveFails: true)
        let posted = Posted()
        let worker = worker(FakeOpener(session: session), posted)
        worker.connect(target(), knownHosts: "")
        posted.wait(until: Self.isConnected)
        #expect(worker.shell() == ShellOutcome(end: .exited(CommandExit(status: 3, signal: nil)), duration: 1))
        worker.keepalive()
        let lost = posted.wait { $0.contains { if case .connectionLost = $0 { true } else { false } } }
        #expect(lost.contains { if case .connectionLost("The server stopped answering.", _) = $0 { true } else { false } })
        #expect(session.log == ["start shell", "shell", "keepalive"])
    }

    @Test func theKeepaliveSettingReachesTheConnectionAndATerminalCommandRunsOnTheSession() {
        let session = FakeSession()
        let opener = FakeOpener(session: session)
        let posted = Posted()
        let worker = worker(opener, posted)
        worker.connect(target(), knownHosts: "", keepalive: 7)
        posted.wait(until: Self.isConnected)
        #expect(opener.opened.withLock { $0.map(\.keepaliveInterval) } == [7])
        #expect(worker.terminalCommand("sudo true").end == .exited(CommandExit(status: 0, signal: nil)))
        // Checks asked for while one still waits on the queue are one check: with a first check held running,
        // five more asked meanwhile make one more, whatever the machine's load.
        let gate = DispatchSemaphore(value: 0)
        session.keepaliveGate = gate
        worker.keepalive()
        let deadline = Date().addingTimeInterval(30)
        while !session.log.contains("keepalive") && Date() < deadline { usleep(1_000) }
        for _ in 0..<5 { worker.keepalive() }
        gate.signal()
        gate.signal()
        worker.waitUntilIdle(seconds: 30)
        #expect(session.log.contains("terminal sudo true"))
        #expect(session.log.filter { $0 == "keepalive" }.count == 2)
        session.keepaliveGate = nil
        worker.disconnect()
        worker.waitUntilIdle(seconds: 5)
        #expect(worker.terminalCommand("top").end == .connectionLost("The session is not connected."))
    }

    @Test func connectionOptionsFollowTheServerAndTheEnvironment() {
        let (agent, _) = SessionWorker.connectOptions(target(), knownHosts: "~/kh", environment: ["HOME": "/h"],
                                                      localUser: "me")
        #expect(agent.useAgent && agent.knownHostsFile == "/h/kh" && agent.user == "admin")
        let (password, _) = SessionWorker.connectOptions(target(auth: .password), knownHosts: "",
                                                         environment: ["ESSH_KNOWN_HOSTS": "/k"], localUser: "me")
        #expect(!password.useAgent && password.knownHostsFile == "/k")
    }
}
