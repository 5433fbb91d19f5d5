import Foundation
import Inventory
import NetParsers
import Reachability
import RemoteCommands
import SSH

/// Runs effects off the UI thread and posts their results as messages. The database work runs on one serial
/// queue, SSH on another (libssh2 allows one thread per session), checks on a third.
final class EffectRunner: @unchecked Sendable {
    let inventory: Inventory
    private let queue: MessageQueue
    private let environment: [String: String]
    private let localUser: String
    private let store = DispatchQueue(label: "essh.app.store")
    private let ssh = DispatchQueue(label: "essh.app.ssh")
    private let checks = DispatchQueue(label: "essh.app.check")
    private let broker: PromptBroker
    private let log: AppLog
    private let lock = NSLock()
    /// Only touched on the `ssh` queue.
    private var session: SSHSession?
    private var connectCancel: Cancellation?
    private var commandCancel: Cancellation?
    /// The fleet run in progress (its own threads; see EffectRunner+Fleet).
    let fleetJobs = FleetJobs()

    init(inventory: Inventory, queue: MessageQueue, environment: [String: String], localUser: String) {
        self.inventory = inventory
        self.queue = queue
        self.environment = environment
        self.localUser = localUser
        broker = PromptBroker(post: { [queue] in queue.post($0) })
        log = AppLog(environment: environment)
    }

    func post(_ message: Message) {
        switch message {
        case .storeFailed(let text), .serverSaveFailed(let text): log.write("database: \(text)")
        case .connectionLost(let text, _): log.write("connection lost: \(text)")
        default: break
        }
        queue.post(message)
    }

    func run(_ effect: Effect) {
        switch effect {
        case .load: store.async { [self] in load() }
        case .check(let targets, let timeout): checks.async { [self] in check(targets, timeout: timeout) }
        case .saveServer(let draft, let replacing): store.async { [self] in save(draft, replacing: replacing) }
        case .deleteServer(let name):
            store.async { [self] in
                do throws(InventoryError) {
                    try inventory.removeServer(named: name)
                    post(.serverDeleted(name))
                } catch { post(.storeFailed(error.message)) }
            }
        case .saveSettings(let values):
            store.async { [self] in
                do throws(InventoryError) {
                    for (key, value) in values { try inventory.setSetting(key, to: value) }
                    post(.settingsSaved)
                } catch { post(.storeFailed(error.message)) }
            }
        case .connect(let target, let knownHosts): connect(target, knownHosts: knownHosts)
        case .cancelConnect:
            withLock { connectCancel?.cancel() }
            broker.cancelAll()
        case .answer(let id, let answer): broker.answer(id: id, answer)
        case .recordConnection(let name, let os):
            store.async { [self] in try? inventory.recordConnection(named: name, os: os) }
        case .loadHistory(let name):
            store.async { [self] in
                let entries = (try? inventory.history(serverNamed: name, limit: 500)) ?? []
                var commands: [String] = []
                for entry in entries.reversed() where commands.last != entry.command { commands.append(entry.command) }
                post(.history(commands))
            }
        case .run(let id, let command): runCommand(id: id, command: command)
        case .runQuick(let id, let kind, let os): runQuick(id: id, kind: kind, os: os)
        case .cancelCommand: withLock { commandCancel?.cancel() }
        case .appendHistory(let server, let command, let status):
            store.async { [self] in
                _ = try? inventory.appendHistory(serverNamed: server, command: command, exitStatus: status)
            }
        case .keepalive:
            ssh.async { [self] in
                guard let session else { return }
                do throws(SSHError) { try session.keepalive() } catch {
                    post(.connectionLost(error.message, at: Date()))
                }
            }
        case .sendMail, .retryMail, .saveOutput: runOutput(effect)
        case .handOver:
            // Leaving and re-entering the full-screen mode is the UI thread's; AppRuntime runs these itself.
            preconditionFailure("Effect.handOver is run by AppRuntime on the UI thread")
        case .runFleet(let id, let targets, let command, let knownHosts, let parallel, let timeout, let password):
            runFleet(id: id, targets: targets, command: command, knownHosts: knownHosts, parallel: parallel,
                     timeout: timeout, password: password)
        case .cancelFleet: fleetJobs.cancel()
        case .disconnect:
            withLock {
                connectCancel?.cancel()
                commandCancel?.cancel()
            }
            broker.cancelAll()
            ssh.async { [self] in
                session?.disconnect()
                session = nil
            }
        }
    }

    /// Waits (bounded) for the SSH queue to say goodbye to the server before the process exits.
    func finish() {
        fleetJobs.cancel()
        run(.disconnect)
        let done = DispatchSemaphore(value: 0)
        ssh.async { done.signal() }
        store.async { done.signal() }
        _ = done.wait(timeout: .now() + 3)
        _ = done.wait(timeout: .now() + 3)
    }

    /// Runs `body` with the open session (nil when none) on the SSH queue and waits for it: the session is used by
    /// one thread at a time, so work that must run on the caller's thread (a shell handed the terminal) still goes
    /// through the queue.
    func withSessionOnSSHQueue<T>(_ body: (SSHSession?) -> T) -> T {
        ssh.sync { body(session) }
    }

    private func withLock(_ body: () -> Void) {
        lock.lock()
        body()
        lock.unlock()
    }

    // MARK: database

    private func load() {
        do throws(InventoryError) {
            let servers = try inventory.servers()
            let results = try inventory.lastCheckResults()
            let settings = try inventory.allSettings()
            post(.loaded(servers: servers, checks: results, settings: settings))
        } catch {
            post(.storeFailed(error.message))
        }
    }

    private func save(_ draft: ServerDraft, replacing: String?) {
        do throws(InventoryError) {
            if let replacing {
                let changes = ServerChanges(name: draft.name, host: draft.host, port: draft.port,
                                            user: draft.user ?? "", auth: draft.auth, keyPath: draft.keyPath ?? "",
                                            os: draft.os, tags: draft.tags, note: draft.note)
                try inventory.updateServer(named: replacing, changes)
            } else {
                try inventory.addServer(draft)
            }
            post(.serverSaved(draft.name))
        } catch {
            post(.serverSaveFailed(error.message))
        }
    }

    // MARK: checks

    private func check(_ targets: [Int64: CheckTarget], timeout: Double) {
        let ids = targets.keys.sorted()
        let list = ids.compactMap { targets[$0] }
        do throws(ReachabilityError) {
            let checker = try Checker(options: Checker.Options(timeout: timeout))
            let outcomes = try checker.check(list) { [self] outcome in
                post(.checkResult(serverId: ids[outcome.index], status: outcome.status.rawValue,
                                  latencyMs: outcome.latencyMs, at: Date()))
            }
            let now = Date()
            let results = outcomes.map {
                CheckResult(serverId: ids[$0.index], status: $0.status.rawValue, latencyMs: $0.latencyMs,
                            banner: $0.banner, error: $0.error, checkedAt: now)
            }
            var failure: String?
            do throws(InventoryError) { try inventory.recordCheckResults(results) } catch { failure = error.message }
            post(.checkFinished(error: failure, at: now))
        } catch {
            post(.checkFinished(error: "The check could not run: \(error.message)", at: Date()))
        }
    }

    // MARK: SSH

    func connectOptions(_ target: ConnectTarget, knownHosts: String) -> (ConnectOptions, String?) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let expand = { (path: String) in path.hasPrefix("~/") ? home + String(path.dropFirst(1)) : path }
        let file = environment["ESSH_KNOWN_HOSTS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (knownHosts.isEmpty ? ConnectOptions.defaultKnownHostsFile : expand(knownHosts))
        var options = ConnectOptions(host: target.host, port: target.port, user: target.user ?? localUser,
                                     knownHostsFile: file)
        options.hostKeyPolicy = .ask
        switch target.auth {
        case .key:
            let key = expand(target.keyPath ?? "")
            options.identityFiles = [key]
            options.useAgent = false
            if !FileManager.default.isReadableFile(atPath: key) {
                return (options, "The key file \(key) does not exist or cannot be read: edit the server (e).")
            }
        case .agent: options.useAgent = true
        case .password: options.useAgent = false
        }
        return (options, nil)
    }

    private func connect(_ target: ConnectTarget, knownHosts: String) {
        let (options, problem) = connectOptions(target, knownHosts: knownHosts)
        if let problem {
            post(.connectFailed(problem))
            return
        }
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch { return post(.connectFailed(error.message)) }
        withLock { connectCancel = cancel }
        broker.reset()
        ssh.async { [self] in
            session?.disconnect()
            session = nil
            do throws(SSHError) {
                let opened = try SSHSession.connect(options, prompter: broker, cancel: cancel) { [self] stage in
                    post(.connectStage(Self.describe(stage)))
                }
                if cancel.isCancelled {
                    opened.disconnect()
                    post(.connectFailed("Cancelled."))
                    return
                }
                var os: RemoteOS?
                if target.os == .auto {
                    post(.connectStage("Detecting the operating system"))
                    os = detectOS(opened, cancel: cancel)
                }
                session = opened
                log.write("connected to \(options.user)@\(options.host):\(options.port) (\(opened.address)), "
                          + "\(opened.serverBanner), host key \(opened.hostKey.fingerprint), "
                          + opened.authenticatedWith)
                post(.connected(os: os, auth: opened.authenticatedWith, at: Date()))
            } catch {
                log.write("connect \(options.user)@\(options.host):\(options.port) failed: \(error.kind.rawValue): "
                          + "\(error.message) [\(error.detail)]")
                post(.connectFailed(error.kind == .cancelled ? "Cancelled." : error.message))
            }
        }
    }

    /// The server's system (RemoteCommands' probe order), or nil when it cannot be told.
    private func detectOS(_ session: SSHSession, cancel: Cancellation?) -> RemoteOS? {
        try? QuickCommandRunner(shell: session, timeout: 10, cancel: cancel).detectOS()
    }

    static func describe(_ stage: ConnectStage) -> String {
        switch stage {
        case .resolving: return "Looking up the host"
        case .connecting(let address): return "Connecting to \(address)"
        case .handshaking: return "Handshake"
        case .verifyingHostKey: return "Verifying the host key"
        case .authenticating(let method): return "Logging in (\(method))"
        }
    }

    /// Runs `body` with the open session on the SSH queue under a fresh cancellation (Esc); a failure becomes
    /// `commandFailed`, saying whether the connection is gone.
    private func onSession(id: Int, _ body: @escaping @Sendable (SSHSession, Cancellation) throws(SSHError) -> Void) {
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            return post(.commandFailed(id: id, message: error.message, connectionLost: false, at: Date()))
        }
        withLock { commandCancel = cancel }
        ssh.async { [self] in
            guard let session else {
                post(.commandFailed(id: id, message: "not connected", connectionLost: true, at: Date()))
                return
            }
            do throws(SSHError) {
                try body(session, cancel)
            } catch {
                let lost = error.kind == .disconnected || !session.isConnected
                if error.kind != .cancelled {
                    log.write("command failed: \(error.kind.rawValue): \(error.message) [\(error.detail)]")
                }
                post(.commandFailed(id: id, message: error.kind == .cancelled ? "stopped (Esc)" : error.message,
                                    connectionLost: lost, at: Date()))
            }
        }
    }

    private func runCommand(id: Int, command: String) {
        onSession(id: id) { [self] session, cancel throws(SSHError) in
            let exit = try session.run(command, cancel: cancel) { [self] _, bytes in
                post(.output(id: id, bytes: Array(bytes)))
            }
            post(.commandFinished(id: id, status: exit.status, signal: exit.signal, at: Date()))
        }
    }

    /// Runs the quick command's plan (RemoteCommands: fallbacks on missing, failing or unreadable commands).
    private func runQuick(id: Int, kind: DataKind, os: RemoteOS?) {
        onSession(id: id) { [self] session, cancel throws(SSHError) in
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
                               error: "could not read the output as a table (\(error)); F5 shows it raw")
        }
    }
}
