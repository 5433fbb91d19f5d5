import Basics
import Operations
import AppCore
import InteractiveShell
import Foundation
import Inventory
import NetParsers
import RemoteCommands
import SSH
import Synchronization

/// The open SSH session: connecting (with the person's answers through `PromptBroker`), commands, quick commands,
/// keepalives, the interactive shell, disconnecting. Everything that touches the session runs on one serial queue:
/// libssh2 allows one thread per session.
final class SessionWorker: Sendable {
    /// What the UI thread and the queue share.
    private struct Shared {
        var session: (any OpenSession)?
        var connectCancel: Cancellation?
        var commandCancel: Cancellation?
        /// A connection check waits on the queue.
        var checkQueued = false
    }

    private let opener: any SessionOpener
    private let post: @Sendable (Message) -> Void
    private let log: AppLog
    private let environment: [String: String]
    private let localUser: String
    private let queue = DispatchQueue(label: "essh.app.ssh")
    private let shared = Mutex(Shared())
    /// The `Prompter` connections ask (host key, passwords); answers come back through `answer`.
    let broker: PromptBroker
    /// The vault's secrets for logins (nil: no vault wired in); asks its passphrase through `broker`.
    let secrets: InterfaceSecrets?

    /// Saved servers by name, for jump hosts naming one.
    private let savedServer: (@Sendable (String) throws -> Server?)?
    /// The team's pinned host keys of a host and port (`TeamPins.lookup`), for every hop; nil: none.
    private let hostKeyPins: TeamPins.Lookup?
    /// Where the key that logged in to a saved server is remembered (`IdentityMemory`); nil: nowhere.
    private let inventory: Inventory?

    /// `vault` (with `serverUID`, a saved server's stable id by name) gives logins their stored secrets;
    /// `inventory` remembers which key logged in.
    init(opener: any SessionOpener, post: @escaping @Sendable (Message) -> Void, log: AppLog,
         environment: [String: String], localUser: String, savedServer: (@Sendable (String) throws -> Server?)? = nil,
         hostKeyPins: TeamPins.Lookup? = nil,
         vault: (any InterfaceVault)? = nil, serverUID: @escaping @Sendable (String) throws -> String? = { _ in nil },
         inventory: Inventory? = nil) {
        self.opener = opener
        self.savedServer = savedServer
        self.hostKeyPins = hostKeyPins
        self.inventory = inventory
        self.post = post
        self.log = log
        self.environment = environment
        self.localUser = localUser
        let broker = PromptBroker(post: post)
        self.broker = broker
        secrets = vault.map { InterfaceSecrets(vault: $0, broker: broker, post: post, serverUID: serverUID) }
    }

    // MARK: policy (the rules are Operations'; the interface adds its phrasing)

    /// A saved server (or quick-connect host) as connection options: the known_hosts file ($ESSH_KNOWN_HOSTS, else
    /// the setting, else ~/.ssh/known_hosts), the login user, how to log in, and the seconds between keepalives
    /// (`session.keepalive`); the second value says why it cannot connect at all (a key file that cannot be read).
    static func connectOptions(_ target: ConnectionProfile, knownHosts: String,
                               keepalive: Int = Settings().keepalive, environment: [String: String],
                               localUser: String, savedServer: (@Sendable (String) throws -> Server?)? = nil,
                               hostKeyPins: TeamPins.Lookup? = nil)
        -> (ConnectOptions, String?)
    {
        let context = ConnectionProfile.Context(environment: environment, localUser: localUser,
                                                knownHostsSetting: knownHosts, savedServer: savedServer,
                                                hostKeyPins: hostKeyPins)
        do throws(ConnectionProblem) {
            var options = try target.options(context: context)
            options.setHostKeyPolicy(.ask)
            options.setKeepalive(keepalive)
            return (options, nil)
        } catch {
            return (error.options, InterfaceWords.sentence(error, saved: target.isSaved))
        }
    }

    /// The prompter of a login to `target` (connecting to `host`, with `keyFiles`): for a saved server, `prompter`
    /// wrapped in a `CredentialPrompter` with the server's credential source — `vault`: `secrets`, `command:`: its
    /// command (`CredentialSourceCheck`'s rule), `ask`: nothing stored, but the typed password kept for the offer to
    /// remember it — whose notices go to the status line. nil for a destination that is no saved server.
    static func credentialPrompter(for target: ConnectionProfile, host: String, keyFiles: [String],
                                   wrapping prompter: any Prompter, secrets: InterfaceSecrets?,
                                   post: @escaping @Sendable (Message) -> Void) -> CredentialPrompter? {
        guard target.isSaved else { return nil }
        return CredentialPrompter(wrapping: prompter, uid: target.uid, host: host, keyFiles: keyFiles,
                                  provider: InterfaceSecrets.provider(target.credential, vault: secrets),
                                  notice: { post(.vault(.notice($0))) })
    }

    /// A login of a worker's own session to `profile` (the Files screen's, the key install's): through the server's
    /// credential source as a session from the list logs in, the typed password dropped afterwards (nothing is
    /// offered to the vault from there).
    static func connectOwnSession(_ profile: ConnectionProfile, options: ConnectOptions, prompter: any Prompter,
                                  secrets: InterfaceSecrets?, post: @escaping @Sendable (Message) -> Void,
                                  cancel: Cancellation?) throws(SSHError) -> SSHSession {
        secrets?.beginLogin(server: profile.isSaved ? profile.name : nil)
        let credentials = credentialPrompter(for: profile, host: options.host, keyFiles: options.identityFiles,
                                             wrapping: prompter, secrets: secrets, post: post)
        defer { _ = credentials?.takeTypedPassword() }
        return try SSHSession.connect(options, prompter: credentials ?? prompter, cancel: cancel)
    }

    // MARK: connecting

    func connect(_ target: ConnectionProfile, knownHosts: String, keepalive: Int = Settings().keepalive) {
        let (options, problem) = Self.connectOptions(target, knownHosts: knownHosts, keepalive: keepalive,
                                                     environment: environment, localUser: localUser,
                                                     savedServer: savedServer, hostKeyPins: hostKeyPins)
        // Every outcome goes through the queue, so outcomes arrive in the order the connections were asked for (the
        // interface drops the outcome of a connection it gave up on by counting them).
        if let problem {
            queue.async { [self] in post(.connectFailed(problem)) }
            return
        }
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            let message = InterfaceWords.sentence(error)
            return queue.async { [self] in post(.connectFailed(message)) }
        }
        shared.withLock { $0.connectCancel = cancel }
        broker.reset()
        secrets?.beginLogin(server: target.isSaved ? target.name : nil)
        let credentials = Self.credentialPrompter(for: target, host: options.host, keyFiles: options.identityFiles,
                                                  wrapping: broker, secrets: secrets, post: post)
        let prompter: any Prompter = credentials ?? broker
        queue.async { [self] in
            let previous = shared.withLock { shared in
                defer { shared.session = nil }
                return shared.session
            }
            previous?.disconnect()
            do throws(SSHError) {
                let opened = try opener.open(options, prompter: prompter, cancel: cancel, onStage: { [self] stage in
                    if case .banner(let text) = stage {
                        post(.connectBanner(text))
                    } else {
                        post(.connectStage(Self.describe(stage)))
                    }
                }, onHopStage: { [self] hop in
                    if case .banner = hop.stage { return }
                    post(.connectHop(HopProgress(hop: hop.hop, hops: hop.hops, name: hop.name,
                                                 stage: Self.describe(hop.stage))))
                })
                if cancel.isCancelled {
                    opened.disconnect()
                    post(.connectFailed("Cancelled."))
                    return
                }
                var os: ServerOS?
                if target.os == .auto {
                    post(.connectStage("Detecting the operating system"))
                    os = try? QuickCommandRunner(shell: opened, timeout: 10, cancel: cancel).detectOS()
                }
                shared.withLock { $0.session = opened }
                log.write("connected to \(options.user)@\(options.host):\(options.port) \(opened.logDescription), "
                          + opened.loginMethod.description)
                post(.connected(os: os, auth: opened.loginMethod, at: Date()))
                // After `connected`, so the session it is about is shown: the vault's password did it, or the offer
                // to remember the typed one (the server's own, as the credential prompter kept it).
                let asked = broker.takeTypedPassword(user: options.user, host: options.host)
                var typed = credentials.map { $0.takeTypedPassword() } ?? asked
                // A server whose password a command prints keeps it there: the vault is not offered.
                if case .command = target.credential { typed = nil }
                if let event = secrets?.loginFinished(method: opened.loginMethod, typed: typed) { post(.vault(event)) }
                // The key that logged in is offered first next time; a database that cannot be written is no
                // reason to fail a session (as the command line).
                _ = try? IdentityMemory.record(opened.loginIdentity, for: target, in: inventory)
                // On the queue before any command: the first one waits for the shell (or its fallback).
                let mode = try opened.start(cancel: cancel)
                log.write("session shell: \(Self.describe(mode))")
                post(.shellMode(mode, notice: Self.startNotice(mode)))
            } catch where shared.withLock({ $0.session }) != nil {
                // Connected, then the shell's start failed: the connection went, or the person left (cancel).
                if error.kind != .cancelled {
                    log.write("starting the session's shell failed: \(error.kind.rawValue): \(error.message)")
                    post(.connectionLost(error.message, at: Date()))
                }
            } catch {
                // A password typed for a login that failed is not offered to the vault.
                _ = broker.takeTypedPassword(user: options.user, host: options.host)
                _ = credentials?.takeTypedPassword()
                log.write("connect \(options.user)@\(options.host):\(options.port) failed: \(error.kind.rawValue): "
                          + "\(error.message) [\(error.detail)]")
                post(.connectFailed(error.kind == .cancelled ? "Cancelled." : InterfaceWords.sentence(error)))
            }
        }
    }

    /// The open session's working folder after its last command (nil: none open, or no shell that lasts); read
    /// without waiting for a running command. The Files screen opened from the session starts there.
    var directory: String? { shared.withLock { $0.session }?.directory }

    func cancelConnect() {
        shared.withLock { $0.connectCancel }?.cancel()
        broker.cancelAll()
    }

    func answer(id: Int, _ answer: PromptAnswer) { broker.answer(id: id, answer) }

    static func describe(_ mode: ShellMode) -> String {
        switch mode {
        case .persistent: return "persistent"
        case .onePerCommand(let reason): return "one per command (\(reason))"
        }
    }

    /// What the session says when it starts without a persistent shell.
    static func startNotice(_ mode: ShellMode) -> String? {
        guard case .onePerCommand(let reason) = mode else { return nil }
        return "Each command runs in a shell of its own here, so cd and variables do not carry over: no shell that "
            + "lasts (\(reason))"
    }

    static func describe(_ stage: ConnectStage) -> String {
        switch stage {
        case .resolving: return "Looking up the host"
        case .connecting(let address): return "Connecting to \(address)"
        case .handshaking: return "Handshake"
        case .verifyingHostKey: return "Verifying the host key"
        case .authenticating(let method): return "Logging in (\(method))"
        case .banner: return "Reading the server's banner"
        }
    }

    // MARK: commands

    /// A command typed on the session screen, in the session's shell; what happened to the shell meanwhile (it
    /// ended and was replaced, the mode changed) is said after the command's result.
    func run(id: Int, command: String) {
        onSession(id: id) { [self] session, cancel, notices throws(SSHError) in
            let exit = try session.run(command, timeout: nil, cancel: cancel, stop: .standard, output: {
                [self] _, bytes in
                post(.output(id: id, bytes: Array(bytes)))
            }, notice: { notice in
                notices.append(notice)
            })
            post(.commandFinished(id: id, status: exit.status, signal: exit.signal, at: Date()))
        }
    }

    /// Runs the quick command's plan (RemoteCommands: fallbacks on missing, failing or unreadable commands).
    func runQuick(id: Int, kind: DataKind, os: ServerOS) {
        onSession(id: id) { [self] session, cancel, _ throws(SSHError) in
            let output: QuickCommandOutput
            do throws(RemoteCommandsError) {
                output = try QuickCommandRunner(shell: session, timeout: 30, cancel: cancel).run(kind, os: os)
            } catch {
                if let ssh = error.ssh { throw ssh }
                post(.quickFinished(id: id, result: QuickResult(kind: kind, commandLine: kind.rawValue, table: nil,
                                                                 error: error.message), at: Date()))
                return
            }
            post(.output(id: id, bytes: output.stdout + output.stderr))
            post(.quickFinished(id: id, result: Self.result(output), at: Date()))
        }
    }

    static func result(_ output: QuickCommandOutput) -> QuickResult {
        switch output.parsed {
        case .success(let items):
            return QuickResult(kind: output.kind, commandLine: output.command.commandLine, table: items.table, error: nil)
        case .failure(let error):
            return QuickResult(kind: output.kind, commandLine: output.command.commandLine, table: nil,
                               error: "could not read the output as a table (\(error.message)); F5 shows it raw")
        }
    }

    func cancelCommand() {
        shared.withLock { $0.commandCancel }?.cancel()
    }

    /// Checks the idle session's connection (a keepalive when one is due); a failure means the connection is gone.
    /// Called every second while the session is idle: nothing is queued while the last check still waits.
    func keepalive() {
        let queued = shared.withLock { shared in
            defer { shared.checkQueued = true }
            return shared.checkQueued
        }
        guard !queued else { return }
        queue.async { [self] in
            let session = shared.withLock { shared in
                shared.checkQueued = false
                return shared.session
            }
            guard let session else { return }
            do throws(SSHError) { try session.keepalive() } catch {
                post(.connectionLost(InterfaceWords.sentence(error), at: Date()))
            }
        }
    }

    func disconnect() {
        let (connect, command) = shared.withLock { ($0.connectCancel, $0.commandCancel) }
        connect?.cancel()
        command?.cancel()
        broker.cancelAll()
        queue.async { [self] in
            let session = shared.withLock { shared in
                defer { shared.session = nil }
                return shared.session
            }
            session?.disconnect()
        }
    }

    /// `command` on a PTY in the real terminal (curses is suspended by the runtime), in the session shell's
    /// working folder when the session knows it; run on the session's queue, as `shell()`.
    func terminalCommand(_ command: String) -> ShellOutcome {
        queue.sync {
            guard let session = shared.withLock({ $0.session }), session.isConnected else {
                return ShellOutcome(end: .connectionLost("The session is not connected."), duration: 0)
            }
            return session.runOnTerminal(command)
        }
    }

    /// The interactive shell on the open session, in the real terminal (curses is suspended by the runtime). It
    /// runs on the session's queue — waited for from the UI thread, which is idle while the shell owns the
    /// terminal — so libssh2 sees one thread per session as always.
    func shell() -> ShellOutcome {
        queue.sync {
            guard let session = shared.withLock({ $0.session }), session.isConnected else {
                return ShellOutcome(end: .connectionLost("The session is not connected."), duration: 0)
            }
            return session.interactiveShell()
        }
    }

    /// Waits at most `seconds` for the work queued so far; true when it finished.
    @discardableResult
    func waitUntilIdle(seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + seconds) == .success
    }

    /// Runs `body` with the open session on the queue under a fresh cancellation (Esc); a failure becomes
    /// `commandFailed`, saying whether the connection is gone. The shell's notices `body` collects are posted after
    /// the command's end, so they follow its result line.
    private func onSession(id: Int, _ body: @escaping @Sendable (any OpenSession, Cancellation,
                                                                 inout [ShellNotice]) throws(SSHError) -> Void) {
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            return post(.commandFailed(id: id, message: InterfaceWords.sentence(error), connectionLost: false,
                                       at: Date()))
        }
        shared.withLock { $0.commandCancel = cancel }
        queue.async { [self] in
            guard let session = shared.withLock({ $0.session }) else {
                post(.commandFailed(id: id, message: "not connected", connectionLost: true, at: Date()))
                return
            }
            var notices: [ShellNotice] = []
            defer {
                for notice in notices {
                    log.write("session shell: \(notice.text)")
                    post(.shellMode(notice.mode, notice: notice.text))
                }
            }
            do throws(SSHError) {
                try body(session, cancel, &notices)
            } catch {
                let lost = error.kind == .disconnected || !session.isConnected
                if error.kind != .cancelled {
                    log.write("command failed: \(error.kind.rawValue): \(error.message) [\(error.detail)]")
                }
                let message = error.kind == .cancelled ? RunningCommand.stopped : InterfaceWords.sentence(error)
                post(.commandFailed(id: id, message: message, connectionLost: lost, at: Date()))
            }
        }
    }
}
