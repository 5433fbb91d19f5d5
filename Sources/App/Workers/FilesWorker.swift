import AppCore
import Basics
import Fleet
import Foundation
import Inventory
import Operations
import Reachability
import SSH
import Synchronization
import Transfer

/// The Files screen's edge: an SSH session of its own (logged in from the same profile and jumps as a session from
/// the servers list, never the session's: `SessionShell` holds that one's lock for a whole command), `RemoteFiles`
/// over it and `LocalFiles` for the two panes, and `Transfer.run` for the copies.
///
/// Listings, changes and the pager's reads run on one serial queue; a copy runs on a queue of its own, so the panes
/// still list while a large file goes, and the UI loop never waits for either. Progress comes at most ten times a
/// second and `MessageQueue` keeps only the newest unread figures of a copy. Esc cancels a copy through its
/// `Cancellation` and removes the partial file it was writing; `p` cancels it keeping the partial, which the next run
/// resumes (`TransferOptions.resume`, which checks it is a prefix first).
final class FilesWorker: Sendable {
    /// The screen's connection; `session` is the screen's opening it belongs to.
    private struct Connection {
        var session: Int
        var ssh: SSHSession?
        var remote: RemoteFiles?
        var cancel: Cancellation?
    }

    /// A copy running: cancelled by Esc (partial removed) or `p` (partial kept).
    private struct Running {
        var session: Int
        var cancel: Cancellation
        var keepPartial: Bool
    }

    /// A copy of one opening of the screen (its ids start at 1 on every opening).
    private struct PausedCopy: Hashable {
        var session: Int
        var id: Int
    }

    private struct Shared {
        var connection = Connection(session: 0)
        var copies: [Int: Running] = [:]
        /// The destinations a paused copy had started, by its id: their partials stay for the resume, and an Esc
        /// during the resume removes them even when it came before the resumed run started any file (while the kept
        /// prefix is still being proven).
        var paused: [PausedCopy: [[UInt8]]] = [:]
        var runners: [ObjectIdentifier: FleetRunner] = [:]
    }

    private let post: @Sendable (Message) -> Void
    private let environment: [String: String]
    private let localUser: String
    private let savedServer: (@Sendable (String) throws -> Server?)?
    /// The team's pinned host keys of a host and port (`TeamPins.lookup`), for every hop; nil: none.
    private let hostKeyPins: TeamPins.Lookup?
    /// Asks the person what a login needs (host key, password): the session worker's broker, whose answers the
    /// prompt overlay sends back.
    private let prompter: PromptBroker
    /// The open session's working folder after its last command (F11 starts there).
    private let sessionFolder: @Sendable () -> String?
    /// The vault's secrets for this screen's logins, and for its copies to servers (nil: no vault wired in).
    private let secrets: InterfaceSecrets?
    private let runSecrets: InterfaceSecrets?
    /// Where the key that logged in to a saved server is remembered (`IdentityMemory`); nil: nowhere.
    private let inventory: Inventory?
    private let queue = DispatchQueue(label: "essh.app.files")
    private let copyQueue = DispatchQueue(label: "essh.app.files.copy")
    private let local = LocalFiles()
    private let shared = Mutex(Shared())
    /// Entered while a copy or a copy to servers runs, so quitting waits for their partial files to be removed.
    private let running = DispatchGroup()

    init(post: @escaping @Sendable (Message) -> Void, environment: [String: String], localUser: String,
         savedServer: (@Sendable (String) throws -> Server?)? = nil, hostKeyPins: TeamPins.Lookup? = nil,
         prompter: PromptBroker,
         sessionFolder: @escaping @Sendable () -> String?, secrets: InterfaceSecrets? = nil,
         runSecrets: InterfaceSecrets? = nil, inventory: Inventory? = nil) {
        self.secrets = secrets
        self.runSecrets = runSecrets
        self.inventory = inventory
        self.post = post
        self.environment = environment
        self.localUser = localUser
        self.savedServer = savedServer
        self.hostKeyPins = hostKeyPins
        self.prompter = prompter
        self.sessionFolder = sessionFolder
    }

    func run(_ work: FilesWork) {
        switch work {
        case .open(let session, let server, let knownHosts, let start, let localStart):
            open(session: session, server: server, knownHosts: knownHosts, start: start, localStart: localStart)
        case .list(let session, let side, let path, let select): list(session: session, side, path, select: select)
        case .operate(let session, let side, let operation): operate(session: session, side, operation)
        case .view(let session, let side, let path, let limit): view(session: session, side, path, limit: limit)
        case .transfer(let session, let id, let request): transfer(session: session, id: id, request)
        case .pause(_, let id): stop(id, keepPartial: true)
        case .cancel(_, let id): stop(id, keepPartial: false)
        case .copyToServers(let session, let id, let servers, let sources, let destination, let knownHosts,
                            let parallel):
            copyToServers(session: session, id: id, servers: servers, sources: sources, destination: destination,
                          knownHosts: knownHosts, parallel: parallel)
        case .close(let session): close(session: session)
        }
    }

    // MARK: the connection

    private func open(session: Int, server: ConnectionProfile, knownHosts: String, start: FilesWork.RemoteStart,
                      localStart: [UInt8]?) {
        let cancel = try? Cancellation()
        let previous = shared.withLock { shared -> Connection in
            defer { shared.connection = Connection(session: session, cancel: cancel) }
            return shared.connection
        }
        previous.cancel?.cancel()
        let name = server.name ?? server.host
        let folder = start == .sessionFolder ? sessionFolder() : nil
        // A new connection asks its own questions: a session ended before (which cancelled the broker's questions)
        // must not answer this one's password or vault passphrase with nothing.
        prompter.reset()
        queue.async { [self] in
            Self.end(previous)
            listLocalStart(session: session, localStart)
            let (options, problem) = SessionWorker.connectOptions(server, knownHosts: knownHosts,
                                                                  environment: environment, localUser: localUser,
                                                                  savedServer: savedServer, hostKeyPins: hostKeyPins)
            if let problem { return post(.files(.connectionFailed(session: session, problem))) }
            let ssh: SSHSession
            do throws(SSHError) {
                ssh = try SessionWorker.connectOwnSession(server, options: options, prompter: prompter,
                                                          secrets: secrets, post: post, cancel: cancel)
                _ = try? IdentityMemory.record(ssh.loginIdentity, for: server, in: inventory)
            } catch {
                let text = error.kind == .cancelled ? "Cancelled." : InterfaceWords.sentence(error)
                return post(.files(.connectionFailed(session: session, text)))
            }
            let remote: RemoteFiles
            do throws(TransferError) {
                remote = try RemoteFiles(session: ssh, host: name)
            } catch {
                ssh.disconnect()
                return post(.files(.connectionFailed(session: session, error.message)))
            }
            let kept = shared.withLock { shared -> Bool in
                guard shared.connection.session == session else { return false }
                shared.connection.ssh = ssh
                shared.connection.remote = remote
                return true
            }
            guard kept else { return Self.end(Connection(session: session, ssh: ssh, remote: remote)) }
            post(.files(.connected(session: session, host: "\(options.user)@\(options.host)")))
            listRemoteStart(session: session, remote, folder: folder)
        }
    }

    /// The local pane starts in `start`, else in the folder eSSH was started in, else the home folder.
    private func listLocalStart(session: Int, _ start: [UInt8]?) {
        let path = start ?? ((try? local.realPath(Array(".".utf8))) ?? local.home())
        listed(session: session, .local, files: local, path: path, select: nil)
    }

    /// The server's pane starts in the session's folder when there is one (and it can be listed), else at home.
    private func listRemoteStart(session: Int, _ remote: RemoteFiles, folder: String?) {
        if let folder, let path = try? remote.realPath(Array(folder.utf8)), let listing = try? Self.rows(remote, path) {
            return post(.files(.listed(session: session, .remote, path: path, entries: listing.rows, select: nil,
                                       omitted: listing.omitted)))
        }
        do throws(TransferError) {
            let home = try remote.home()
            listed(session: session, .remote, files: remote, path: home, select: nil)
        } catch {
            post(.files(.connectionFailed(session: session, error.message)))
        }
    }

    /// Leaves the server once the copy in progress (whose cancel the screen sent before) has ended and removed its
    /// partial file.
    private func close(session: Int) {
        let cancel = shared.withLock { shared -> Cancellation? in
            guard shared.connection.session == session else { return nil }
            return shared.connection.cancel
        }
        cancel?.cancel()
        copyQueue.async { [self] in
            queue.async { [self] in
                let connection = shared.withLock { shared -> Connection? in
                    shared.paused = shared.paused.filter { $0.key.session != session }
                    guard shared.connection.session == session else { return nil }
                    defer { shared.connection = Connection(session: 0) }
                    return shared.connection
                }
                if let connection { Self.end(connection) }
            }
        }
    }

    private static func end(_ connection: Connection) {
        connection.remote?.close()
        connection.ssh?.disconnect()
    }

    /// The files of `side` for the screen's opening `session` (nil: that screen closed, or not logged in yet).
    private func files(_ session: Int, _ side: FilesSide) -> (any FileSide)? {
        if side == .local { return local }
        return shared.withLock { $0.connection.session == session ? $0.connection.remote : nil }
    }

    // MARK: listings, changes, the pager

    private func list(session: Int, _ side: FilesSide, _ path: [UInt8], select: [UInt8]?) {
        queue.async { [self] in
            guard let files = files(session, side) else { return }
            listed(session: session, side, files: files, path: path, select: select)
        }
    }

    private func listed(session: Int, _ side: FilesSide, files: any FileSide, path: [UInt8], select: [UInt8]?) {
        do throws(TransferError) {
            let listing = try Self.rows(files, path)
            post(.files(.listed(session: session, side, path: path, entries: listing.rows, select: select,
                                omitted: listing.omitted)))
        } catch {
            post(.files(.listFailed(session: session, side, path: path, error.message)))
        }
    }

    /// A folder's entries as the screen's rows; a symlink is looked through to tell whether Enter opens it. A name
    /// that is not one path component (`..`, `a/b`, a NUL byte: a hostile or broken server) is never shown or used:
    /// it is left out of the rows and returned in `omitted`, for the screen to say once.
    static func rows(_ files: any FileSide, _ path: [UInt8]) throws(TransferError)
        -> (rows: [FileRow], omitted: [[UInt8]])
    {
        let entries = try files.list(path)
        let omitted = entries.filter { PathBytes.componentProblem($0.name) != nil }.map(\.name)
        let rows = entries.filter { PathBytes.componentProblem($0.name) == nil }.map { entry in
            var linksToDirectory = false
            if entry.info.kind == .symlink {
                let target = try? files.info(FilePath.join(path, entry.name), followLinks: true)
                linksToDirectory = target?.kind == .directory
            }
            return FileRow(name: entry.name, kind: Self.kind(entry.info.kind), size: entry.info.size,
                           mode: entry.info.mode & 0o7777, owner: entry.owner, modified: entry.info.modified,
                           linksToDirectory: linksToDirectory)
        }
        return (rows, omitted)
    }

    static func kind(_ kind: FileKind) -> FileRow.Kind {
        switch kind {
        case .regular: return .file
        case .directory: return .directory
        case .symlink: return .symlink
        case .fifo, .socket, .device, .other: return .other
        }
    }

    private func operate(session: Int, _ side: FilesSide, _ operation: FilesOperation) {
        queue.async { [self] in
            guard let files = files(session, side) else { return }
            let (done, problem, select) = Self.apply(operation, on: files)
            if let problem, done == 0 {
                post(.files(.operationFailed(session: session, side, problem)))
            } else {
                // Something changed (all of it, or some before a failure): the pane is listed again.
                post(.files(.operated(session: session, side, notice: problem ?? Self.notice(operation, count: done),
                                      select: select)))
            }
        }
    }

    /// Carries out `operation`: how many paths it changed, the first failure's sentence, the name to select after.
    static func apply(_ operation: FilesOperation, on files: any FileSide) -> (Int, String?, [UInt8]?) {
        let paths: [[UInt8]]
        let select: [UInt8]?
        let step: ([UInt8]) throws(TransferError) -> Void
        switch operation {
        case .makeDirectory(let path):
            (paths, select, step) = ([path], FilePath.lastPart(path), { (p: [UInt8]) throws(TransferError) in
                try files.makeDirectory(p, mode: 0o755)
            })
        case .rename(let from, let to):
            (paths, select, step) = ([from], FilePath.lastPart(to), { (p: [UInt8]) throws(TransferError) in
                try files.rename(p, to: to)
            })
        case .remove(let list):
            (paths, select, step) = (list, nil, { (p: [UInt8]) throws(TransferError) in
                try files.remove(p, recursive: true)
            })
        case .changeMode(let list, let mode):
            (paths, select, step) = (list, nil, { (p: [UInt8]) throws(TransferError) in
                try files.changeMode(p, to: mode)
            })
        }
        var done = 0
        for path in paths {
            do throws(TransferError) {
                try step(path)
                done += 1
            } catch {
                return (done, error.message, select)
            }
        }
        return (done, nil, select)
    }

    static func notice(_ operation: FilesOperation, count: Int) -> String {
        switch operation {
        case .makeDirectory(let path): return "Made the folder \(display(FilePath.lastPart(path)))."
        case .rename(let from, let to):
            return "Renamed \(display(FilePath.lastPart(from))) to \(display(FilePath.lastPart(to)))."
        case .remove: return "Deleted \(CountText.text(count, "entry", plural: "entries"))."
        case .changeMode(_, let mode):
            return "Mode \(String(mode, radix: 8)) set on \(CountText.text(count, "entry", plural: "entries"))."
        }
    }

    static func display(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private func view(session: Int, _ side: FilesSide, _ path: [UInt8], limit: Int) {
        queue.async { [self] in
            guard let files = files(session, side) else { return }
            do throws(TransferError) {
                let bytes = try files.readPrefix(path, limit: limit + 1)
                post(.files(.viewed(session: session, path: path, bytes: Array(bytes.prefix(limit)),
                                    cut: bytes.count > limit)))
            } catch {
                post(.files(.viewFailed(session: session, error.message)))
            }
        }
    }

    // MARK: copies

    private func transfer(session: Int, id: Int, _ request: FilesTransferRequest) {
        guard let remote = shared.withLock({ $0.connection.session == session ? $0.connection.remote : nil }) else {
            return post(.files(.transfer(session: session, id: id, .finished(.stopped(
                "Not connected to the server: leave the screen and open it again.")))))
        }
        let cancel: Cancellation
        do throws(SSHError) { cancel = try Cancellation() } catch {
            let text = InterfaceWords.sentence(error)
            return post(.files(.transfer(session: session, id: id, .finished(.stopped(text)))))
        }
        let earlier = shared.withLock { shared -> [[UInt8]] in
            shared.copies[id] = Running(session: session, cancel: cancel, keepPartial: true)
            return shared.paused.removeValue(forKey: PausedCopy(session: session, id: id)) ?? []
        }
        running.enter()
        copyQueue.async { [self] in
            defer { running.leave() }
            var options = TransferOptions()
            options.recursive = true
            options.resume = request.resume
            // Whether the partial stays is decided when it is stopped (Esc or p): it is removed here after Esc.
            options.keepPartialOnCancel = true
            let transfer = TransferRequest(direction: request.from == .local ? .upload : .download,
                                           sources: request.sources, destination: request.target,
                                           options: options)
            let started = Mutex<[[UInt8]]>(earlier)
            let post = post
            let began = Date()
            let summary = Transfer.run(transfer, remote: remote, cancel: cancel) { event in
                switch event {
                case .planned(let files, let bytes):
                    post(.files(.transfer(session: session, id: id, .planned(files: files, bytes: bytes))))
                case .fileStarted(_, let destination, _, _):
                    started.withLock { if !$0.contains(destination) { $0.append(destination) } }
                case .progress(let progress):
                    post(.files(.transfer(session: session, id: id, .progress(progress))))
                case .fileFinished(let outcome):
                    post(.files(.transfer(session: session, id: id, .fileFinished(
                        name: outcome.destination, problem: Self.problem(outcome)))))
                }
            }
            let keep = shared.withLock { $0.copies.removeValue(forKey: id)?.keepPartial ?? true }
            let end: FilesTransferEnd
            if cancel.isCancelled, summary.problem != nil || !summary.allArrived {
                if keep {
                    end = .paused
                    let kept = started.withLock { $0 }
                    shared.withLock { $0.paused[PausedCopy(session: session, id: id)] = kept }
                } else {
                    let receiving: any FileSide = request.from == .local ? remote : local
                    Self.removePartials(of: started.withLock { $0 }, on: receiving)
                    end = .cancelled
                }
            } else if let problem = summary.problem {
                end = .stopped(problem.message)
            } else if summary.allArrived {
                let files = summary.outcomes.filter {
                    if case .copied = $0.status { return true }
                    if case .alreadyComplete = $0.status { return true }
                    return false
                }.count
                end = .arrived(files: files, bytes: summary.bytesSent, seconds: Date().timeIntervalSince(began))
            } else {
                end = .incomplete(failed: summary.outcomes.filter { !$0.arrived }.count, of: summary.outcomes.count)
            }
            post(.files(.transfer(session: session, id: id, .finished(end))))
        }
    }

    /// Why a file did not arrive (nil: it did).
    static func problem(_ outcome: FileOutcome) -> String? {
        if outcome.arrived { return nil }
        switch outcome.status {
        case .skipped(let reason), .failed(let reason): return reason
        default:
            if case .differ = outcome.checksum { return "its checksum differs after the copy" }
            return "did not arrive"
        }
    }

    /// Esc: the partial files the copy was writing go (`.NAME.essh-….part` beside each destination it started).
    static func removePartials(of destinations: [[UInt8]], on files: any FileSide) {
        for destination in destinations {
            guard let folder = FilePath.parent(destination) else { continue }
            let name = FilePath.lastPart(destination)
            guard let entries = try? files.list(folder) else { continue }
            for entry in entries where PartialName.isPartial(entry.name, of: name) {
                try? files.remove(FilePath.join(folder, entry.name), recursive: false)
            }
        }
    }

    /// Esc or `p` on a running copy.
    private func stop(_ id: Int, keepPartial: Bool) {
        let cancel = shared.withLock { shared -> Cancellation? in
            shared.copies[id]?.keepPartial = keepPartial
            return shared.copies[id]?.cancel
        }
        cancel?.cancel()
    }

    /// `m`: the local files to every marked server at once (`FleetCopy`: a fleet run whose work is the copy), each
    /// server's result as it finishes.
    private func copyToServers(session: Int, id: Int, servers: [ConnectionProfile], sources: [[UInt8]],
                               destination: [UInt8], knownHosts: String, parallel: Int) {
        var options = TransferOptions()
        options.recursive = true
        let copy = FleetCopy(request: TransferRequest(direction: .upload, sources: sources, destination: destination,
                                                      options: options))
        let fits = max(1, FleetRunner.fit(parallel, openFiles: FileDescriptorLimit.raiseToHard()).parallel)
        let runner = FleetRunner(executor: copy.executor(), options: FleetRunner.Options(
            parallel: fits, timeout: FleetCopy.noTimeout, describe: InterfaceWords.sentence))
        shared.withLock { $0.runners[ObjectIdentifier(runner)] = runner }
        running.enter()
        let post = post
        let started = PlainThread.start { [self] in
            defer { running.leave() }
            // On the copy's thread: reading the servers' own secrets may ask the vault passphrase.
            let targets = FleetWorker.fleetTargets(servers, knownHosts: knownHosts, password: nil,
                                                   environment: environment, localUser: localUser,
                                                   savedServer: savedServer, hostKeyPins: hostKeyPins,
                                                   vault: runSecrets, inventory: inventory)
            _ = runner.run(targets, command: "", onFinish: { index, result in
                post(.files(.serverCopied(session: session, id: id, index: index, Self.serverCopy(result))))
            })
            shared.withLock { $0.runners[ObjectIdentifier(runner)] = nil }
        }
        if !started {
            running.leave()
            shared.withLock { $0.runners[ObjectIdentifier(runner)] = nil }
            for (index, server) in servers.enumerated() {
                post(.files(.serverCopied(session: session, id: id, index: index, FilesServerCopy(
                    server: server.name ?? server.host, status: FleetStatus.failed.rawValue,
                    lines: ["The system refused a thread for the copy."]))))
            }
        }
    }

    /// One server's fleet result as the screen's row: its status word and its per-file lines (or why it failed).
    static func serverCopy(_ result: FleetResult) -> FilesServerCopy {
        var lines = result.stdoutText.split(separator: "\n").map(String.init)
        lines += result.stderrText.split(separator: "\n").map(String.init)
        if let error = result.error { lines.append(error) }
        return FilesServerCopy(server: result.name, status: result.status.rawValue, lines: lines)
    }

    // MARK: quitting

    /// Quitting: every copy stops (its partial file removed), the copies to servers stop, the server is left.
    func finish(seconds: Double) {
        let (copies, runners, session) = shared.withLock { shared in
            for id in shared.copies.keys { shared.copies[id]?.keepPartial = false }
            return (shared.copies.values.map(\.cancel), Array(shared.runners.values), shared.connection.session)
        }
        copies.forEach { $0.cancel() }
        runners.forEach { $0.cancel() }
        close(session: session)
        _ = running.wait(timeout: .now() + seconds)
        queue.sync {}
    }
}

/// What a pane's worker side does, on this machine (`LocalFiles`) or the server (`RemoteFiles`): one code path for
/// both panes.
protocol FileSide: Sendable {
    func list(_ directory: [UInt8]) throws(TransferError) -> [FileEntry]
    func info(_ path: [UInt8], followLinks: Bool) throws(TransferError) -> FileInfo?
    func makeDirectory(_ path: [UInt8], mode: UInt32) throws(TransferError)
    func rename(_ from: [UInt8], to: [UInt8]) throws(TransferError)
    func remove(_ path: [UInt8], recursive: Bool) throws(TransferError)
    func changeMode(_ path: [UInt8], to mode: UInt32) throws(TransferError)
    func readPrefix(_ path: [UInt8], limit: Int) throws(TransferError) -> [UInt8]
}

extension LocalFiles: FileSide {}
extension RemoteFiles: FileSide {}
