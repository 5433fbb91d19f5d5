import Operations
import AppCore
import Foundation
import Basics
import Inventory

/// The real effect handler: one worker per job, each on its own thread or queue, so a slow database, sendmail or
/// server never holds up another. This file only routes; each worker is one file in Workers/.
final class LiveEffects: EffectHandler {
    let store: StoreWorker
    let checks: CheckWorker
    let session: SessionWorker
    let mail: MailWorker
    let fleet: FleetWorker
    let tunnels: TunnelWorker
    let files: FilesWorker
    let keys: KeyInstallWorker
    /// The team database's sync (issue 18); it does nothing when the inventory is not linked to a team.
    let team: TeamWorker
    /// The vault's work (nil: no vault wired in).
    let vault: VaultWorker?
    /// What the interface says once the terminal is back (how many tunnels were stopped), set by `finish`.
    private(set) var farewell: String?

    init(inventory: Inventory, queue: MessageQueue, environment: [String: String], localUser: String,
         opener: any SessionOpener = SSHSessionOpener(), mailTransport: @escaping MailWorker.Transport = MailWorker.sendmail,
         vault interfaceVault: (any InterfaceVault)? = nil,
         serverUID: @escaping @Sendable (String) throws -> String? = { _ in nil }) {
        let log = AppLog(environment: environment)
        let post = Self.logging(into: log, then: { queue.post($0) })
        store = StoreWorker(inventory: inventory, post: post,
                            context: ConnectionProfile.Context(environment: environment, localUser: localUser))
        // Servers added or removed by `essh servers …` while the interface runs show up without a restart.
        store.watch()
        // Jump hosts naming saved servers are looked up in the same database (GRDB serialises the reads).
        let savedServer: @Sendable (String) throws -> Server? = { name in try inventory.findServer(named: name) }
        // The team's pinned host keys (issue 18), read from the cache at each connection: every hop of every
        // connection the interface makes (sessions, fleet runs, files, key installs, checks behind jump hosts,
        // tunnels) trusts a pinned key without a question and refuses any other.
        let hostKeyPins = TeamPins.lookup(inventory)
        checks = CheckWorker(inventory: inventory, post: post,
                             context: ConnectionProfile.Context(environment: environment, localUser: localUser,
                                                                savedServer: savedServer, hostKeyPins: hostKeyPins))
        session = SessionWorker(opener: opener, post: post, log: log, environment: environment, localUser: localUser,
                                savedServer: savedServer, hostKeyPins: hostKeyPins, vault: interfaceVault,
                                serverUID: serverUID, inventory: inventory)
        vault = session.secrets.map { VaultWorker(secrets: $0, post: post) }
        mail = MailWorker(outbox: InventoryOutbox { inventory }, transport: mailTransport, post: post)
        // Fleet runs and the Files screen ask the same vault, through states of their own (a run unlocks it once).
        let runSecrets = session.secrets?.sibling(forRuns: true)
        fleet = FleetWorker(post: post, environment: environment, localUser: localUser, savedServer: savedServer,
                            hostKeyPins: hostKeyPins, secrets: runSecrets, inventory: inventory)
        let sessionWorker = session
        files = FilesWorker(post: post, environment: environment, localUser: localUser, savedServer: savedServer,
                            hostKeyPins: hostKeyPins, prompter: sessionWorker.broker, sessionFolder: { sessionWorker.directory },
                            secrets: session.secrets?.sibling(forRuns: false), runSecrets: runSecrets,
                            inventory: inventory)
        keys = KeyInstallWorker(post: post, environment: environment, localUser: localUser, savedServer: savedServer,
                                hostKeyPins: hostKeyPins, prompter: sessionWorker.broker, resetPrompts: { sessionWorker.broker.reset() },
                                cancelPrompts: { sessionWorker.broker.cancelAll() }, inventory: inventory,
                                secrets: session.secrets?.sibling(forRuns: false))
        tunnels = TunnelWorker(post: post, opener: LiveTunnelOpener(options: LiveTunnelOpener.savedServers(
            context: ConnectionProfile.Context(environment: environment, localUser: localUser,
                                               hostKeyPins: hostKeyPins),
            savedServer: savedServer)).opener)
        // The team's password only from the vault already open (or the unlock agent's key): never a question.
        team = TeamWorker(inventory: inventory, post: post, vaultPassword: { id in
            (try? interfaceVault?.secret(serverUID: id, kind: .password)) ?? nil
        })
        team.start()
    }

    /// Posts through `post`, writing what the screen cannot show in full (a database error, a lost connection) to
    /// the log first.
    static func logging(into log: AppLog, then post: @escaping @Sendable (Message) -> Void)
        -> @Sendable (Message) -> Void
    {
        return { message in
            switch message {
            case .storeFailed(let text), .serverSaveFailed(let text): log.write("database: \(text)")
            case .connectionLost(let text, _): log.write("connection lost: \(text)")
            default: break
            }
            post(message)
        }
    }

    func run(_ work: Work) {
        switch work {
        case .load: store.load()
        case .saveServer(let draft, let replacing): store.save(draft, replacing: replacing)
        case .deleteServer(let name): store.delete(name)
        case .saveSettings(let values): store.saveSettings(values)
        case .recordConnection(let name, let os): store.recordConnection(name, os: os)
        case .loadHistory(let name): store.loadHistory(name)
        case .appendHistory(let server, let command, let status):
            store.appendHistory(server: server, command: command, status: status)
        case .loadFleetHistory: store.loadFleetHistory()
        case .appendFleetHistory(let command, let servers): store.appendFleetHistory(command: command, servers: servers)
        case .resolveDestination(let text): store.resolve(text)
        case .findSSHConfigHosts: store.findSSHConfigHosts()
        case .importSSHConfig: store.importSSHConfig()
        case .declineSSHConfigImport: store.declineSSHConfigImport()
        case .saveForwards(let server, let changes, let autostart, let done):
            store.saveForwards(server, changes, autostart: autostart, done: done)
        case .startTunnel(let id): tunnels.start(id)
        case .stopTunnel(let id): tunnels.stop(id)
        case .restartTunnel(let id): tunnels.restart(id)
        case .forgetTunnel(let id): tunnels.forget(id)
        case .check(let targets, let timeout): checks.check(targets, timeout: timeout)
        case .syncTeam: team.syncNow()
        case .connect(let target, let knownHosts, let keepalive):
            session.connect(target, knownHosts: knownHosts, keepalive: keepalive)
        case .cancelConnect: session.cancelConnect()
        case .answer(let id, let answer): session.answer(id: id, answer)
        case .run(let id, let command): session.run(id: id, command: command)
        case .runQuick(let id, let kind, let os): session.runQuick(id: id, kind: kind, os: os)
        case .cancelCommand: session.cancelCommand()
        case .disconnect: session.disconnect()
        case .keepalive: session.keepalive()
        case .sendMail(let request, let sendmail): mail.send(request, sendmail: sendmail)
        case .retryMail(let sendmail): mail.retry(sendmail: sendmail)
        case .saveOutput(let path, let bytes): mail.save(bytes, to: path)
        case .runFleet(let id, let targets, let command, let knownHosts, let parallel, let timeout, let password,
                       let checked):
            fleet.run(id: id, targets: targets, command: command, knownHosts: knownHosts, parallel: parallel,
                      timeout: timeout, password: password, checked: checked)
        case .cancelFleet: fleet.cancel()
        case .checkFleetLogins(let id, let targets, let knownHosts, let parallel, let timeout):
            fleet.checkLogins(id: id, targets: targets, knownHosts: knownHosts, parallel: parallel, timeout: timeout)
        case .cancelFleetCheck: fleet.cancelCheck()
        case .files(let work): files.run(work)
        case .vault(let work): vault?.run(work)
        case .installKey(let server, let knownHosts): keys.install(server, knownHosts: knownHosts)
        case .cancelKeyInstall: keys.cancel()
        }
    }

    func handOver(_ handoff: Handoff) -> HandoffOutcome {
        switch handoff {
        case .pipe(let command, let input):
            let result = LocalPipe.run(command: command, input: input)
            // Without the pause, `wc -l`'s answer would be painted over by the interface at once.
            Self.waitForEnter(after: "[\(result.summary)] Press Enter to return to eSSH.")
            return .piped(command: command, result: result)
        case .shell:
            return .shell(session.shell())
        case .terminal(let line, let command, _):
            let outcome = session.terminalCommand(command)
            // A program that drew on the normal screen (sudo, apt) left its output there: the person reads it before
            // the interface comes back over it. A full-screen one (vi, less) put the screen back itself.
            if case .exited(let exit) = outcome.end, !outcome.usedAlternateScreen {
                let status = exit.signal.map { "killed by \($0)" } ?? "exit \(exit.status.map(String.init) ?? "?")"
                Self.waitForEnter(after: "[\(status)] Press Enter to return to eSSH.")
            }
            return .terminal(line: line, outcome)
        }
    }

    /// Waits (bounded) for a running command and fleet run to be stopped on their servers (INT, TERM, KILL: at most
    /// 1.5 s, see `StopEscalation`), the session to say goodbye to the server and the store to finish before the
    /// process exits.
    func finish() {
        // Woken and joined first: its thread may be waiting on the team database, which must not delay the rest.
        team.stop(seconds: 2)
        let stopped = tunnels.stopAll()
        if stopped > 0 {
            farewell = "eSSH stopped \(CountText.text(stopped, "tunnel")) that \(stopped == 1 ? "was" : "were") running."
        }
        fleet.cancel()
        vault?.finish()
        files.finish(seconds: 3)
        keys.cancel()
        keys.waitUntilIdle(seconds: 3)
        store.stopWatching()
        session.disconnect()
        session.waitUntilIdle(seconds: 3)
        fleet.waitUntilIdle(seconds: 3)
        store.waitUntilIdle(seconds: 3)
    }

    /// Shows `line` and reads the terminal (in its normal line mode while handed over) up to a newline or EOF.
    static func waitForEnter(after line: String) {
        let text = Array("\r\n\(line) ".utf8)
        _ = text.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return }
        }
    }
}
