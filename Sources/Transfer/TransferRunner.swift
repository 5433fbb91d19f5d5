import Basics
import Crypto
import Foundation
import SSH
import Synchronization

/// Copies files between this machine and one server.
public enum Transfer {
    /// Bytes handed to libssh2 per SFTP call (design §3: 2 MiB, never more than what is left of the file).
    public static let window = 2 << 20

    /// Plans (scp's destination rules, -r, symlinks, special files) and runs `request` against one server.
    /// Returns when done, failed or cancelled; `events` is called from the transfer's threads.
    public static func run(_ request: TransferRequest, remote: RemoteFiles, cancel: Cancellation? = nil,
                           events: @escaping @Sendable (TransferEvent) -> Void) -> TransferSummary {
        run(request, remote: remote, cancel: cancel, clock: SystemClock(), events: events)
    }

    /// As `run`, on `clock` (tests).
    public static func run(_ request: TransferRequest, remote: RemoteFiles, cancel: Cancellation?,
                           clock: TransferClock,
                           events: @escaping @Sendable (TransferEvent) -> Void) -> TransferSummary {
        TransferRunner(request: request, remote: remote, cancel: cancel ?? remote.cancel, clock: clock,
                       events: events).run()
    }

    /// For tests: with another split threshold; also says into how many ranges the biggest split file went.
    static func run(_ request: TransferRequest, remote: RemoteFiles, cancel: Cancellation?, splitThreshold: Int64,
                    events: @escaping @Sendable (TransferEvent) -> Void) -> (TransferSummary, splitWays: Int) {
        let runner = TransferRunner(request: request, remote: remote, cancel: cancel ?? remote.cancel,
                                    clock: SystemClock(), events: events, splitThreshold: splitThreshold)
        let summary = runner.run()
        return (summary, runner.sharedState.withLock { $0.splitWays })
    }
}

/// One run of `Transfer.run`: the plan, then folders and links in order, then files on up to `parallel` lanes.
final class TransferRunner: Sendable {
    let request: TransferRequest
    let remote: RemoteFiles
    let cancel: Cancellation?
    let clock: TransferClock
    let events: @Sendable (TransferEvent) -> Void
    let limiter: RateLimiter?
    let local = LocalFiles()
    /// A download's destination folder, held open (set once the plan is made).
    let localRoot = Mutex<LocalDestination?>(nil)
    /// Files at least this big are split across lanes (`splitWays`).
    let splitThreshold: Int64
    let sharedState = Mutex(Shared())

    struct Shared {
        var next = 0
        var outcomes: [Int: FileOutcome] = [:]
        var problem: TransferError?
        var meter = RateMeter()
        var lastEmit = -1.0
        var totalDone: Int64 = 0
        var filesDone = 0
        var filesTotal = 0
        var bytesTotal: Int64 = 0
        /// Folders this run made (nothing stale, and nothing of anyone else's, can be in them).
        var madeFolders: Set<[UInt8]> = []
        /// Partial names (`.NAME.essh-*.part`) found in a destination folder, listed once per run.
        var partialsIn: [[UInt8]: [[UInt8]]] = [:]
        /// The most ranges a file was split into (1: none).
        var splitWays = 1
        /// Lanes whose channel could not be opened.
        var laneFailures = 0
    }

    var options: TransferOptions { request.options }
    var upload: Bool { request.direction == .upload }

    init(request: TransferRequest, remote: RemoteFiles, cancel: Cancellation?, clock: TransferClock,
         events: @escaping @Sendable (TransferEvent) -> Void, splitThreshold: Int64 = TransferRunner.splitThreshold) {
        self.splitThreshold = splitThreshold
        self.request = request
        self.remote = remote
        self.cancel = cancel
        self.clock = clock
        self.events = events
        limiter = request.options.limit.map { RateLimiter(bytesPerSecond: $0, clock: clock) }
    }

    func run() -> TransferSummary {
        let plan: TransferPlan
        do throws(TransferError) {
            var destination = request.destination
            if !upload && destination.isEmpty { destination = [0x2E] }
            // A source named `.`, `..`, `dir/.` or the login folder (empty) has no name of its own to copy to:
            // its real path gives one (`-r web1: ./backup` makes ./backup/essh-test when ./backup exists).
            var sources: [[UInt8]] = []
            for source in request.sources {
                let base = PathBytes.baseName(source)
                if base.isEmpty || base == [0x2E] || base == [0x2E, 0x2E] {
                    sources.append(upload ? try local.realPath(source) : try remote.realPath(source))
                } else {
                    sources.append(source)
                }
            }
            plan = try TransferPlanner.plan(sources: sources, destination: destination, options: options,
                                            from: upload ? local : remote, to: upload ? remote : local)
            if !upload { localRoot.withLock { $0 = nil } }
            if !upload && plan.items.contains(where: { $0.info != nil }) {
                let root = try LocalDestination(root: plan.root)
                localRoot.withLock { $0 = root }
            }
        } catch {
            return TransferSummary(outcomes: [], problem: error)
        }
        sharedState.withLock { s in
            s.filesTotal = plan.files
            s.bytesTotal = plan.bytes
        }
        events(.planned(files: plan.files, bytes: plan.bytes))
        var fileIndexes: [Int] = []
        var linkIndexes: [Int] = []
        // Folders first, in order (a folder before what is in it); files after, on lanes; links last, so no file of
        // the copy is ever written through a link the copy made.
        for (i, item) in plan.items.enumerated() {
            if cancel?.isCancelled == true { break }
            switch item.action {
            case .copyFile: fileIndexes.append(i)
            case .makeDirectory: finish(i, makeDirectory(item))
            case .makeLink: linkIndexes.append(i)
            case .skip(let reason): finish(i, outcome(item, .skipped(reason: reason)))
            case .fail(let reason): finish(i, outcome(item, .failed(reason: reason)))
            }
        }
        let lanes = min(max(options.parallel, 1), 8, remote.lanes, max(fileIndexes.count, 1))
        if !fileIndexes.isEmpty && cancel?.isCancelled != true {
            let group = DispatchGroup()
            let indexes = fileIndexes
            for _ in 0..<lanes {
                group.enter()
                let started = PlainThread.start(stackSize: 1 << 20) { [self] in
                    lane(plan, indexes, lanes: lanes)
                    group.leave()
                }
                if !started { group.leave() }
            }
            group.wait()
        }
        for i in linkIndexes where cancel?.isCancelled != true {
            if case .makeLink(let target) = plan.items[i].action { finish(i, makeLink(plan.items[i], target: target)) }
        }
        if options.preserve { preserveFolderTimes(plan) }
        return sharedState.withLock { s in
            var problem = s.problem
            if problem == nil && cancel?.isCancelled == true {
                problem = TransferError(.cancelled, "The copy was cancelled.")
            }
            return TransferSummary(outcomes: s.outcomes.keys.sorted().map { s.outcomes[$0]! }, problem: problem)
        }
    }

    // MARK: - Lanes

    /// One lane: its own SFTP channel, taking the next file until none is left. A lane whose channel cannot be
    /// opened (a server allowing fewer sessions) leaves the files to the others; only when no lane opens does the
    /// transfer stop.
    private func lane(_ plan: TransferPlan, _ indexes: [Int], lanes: Int) {
        var client: SFTPClient
        do throws(TransferError) {
            client = try remote.openLane(cancel: cancel)
        } catch {
            sharedState.withLock { s in
                s.laneFailures += 1
                if s.laneFailures == lanes && s.problem == nil { s.problem = error }
            }
            return
        }
        defer { client.close() }
        let held = LocalDestination.HeldFolder()
        while true {
            let next: Int? = sharedState.withLock { s in
                guard s.problem == nil, s.next < indexes.count else { return nil }
                defer { s.next += 1 }
                return indexes[s.next]
            }
            guard let index = next, cancel?.isCancelled != true else { break }
            let item = plan.items[index]
            do throws(TransferError) {
                if !client.isOpen { client = try remote.openLane(cancel: cancel) }
                finish(index, try copy(item, lane: client, held: held))
            } catch {
                finish(index, outcome(item, .failed(reason: error.message)))
                if error.kind == .connection || error.kind == .cancelled {
                    sharedState.withLock { s in if s.problem == nil { s.problem = error } }
                    break
                }
            }
        }
    }

    private func finish(_ index: Int, _ outcome: FileOutcome) {
        sharedState.withLock { s in
            s.outcomes[index] = outcome
            if case .copied = outcome.status { s.filesDone += 1 }
            if case .alreadyComplete = outcome.status { s.filesDone += 1 }
        }
        events(.fileFinished(outcome))
    }

    func outcome(_ item: TransferItem, _ status: FileOutcome.Status, sent: Int64 = 0,
                 seconds: Double = 0) -> FileOutcome {
        FileOutcome(source: item.source, destination: item.destination, size: item.info?.size ?? 0, bytesSent: sent,
                    status: status, seconds: seconds)
    }

    // MARK: - Progress

    /// Counts `bytes` more of `file` and reports at most ten times a second.
    func progressed(_ bytes: Int64, file: [UInt8], fileDone: Int64, fileSize: Int64) {
        let now = clock.now()
        let report: TransferProgress? = sharedState.withLock { s in
            s.totalDone += bytes
            s.meter.record(totalBytes: s.totalDone, at: now)
            guard now - s.lastEmit >= 0.1 else { return nil }
            s.lastEmit = now
            return TransferProgress(file: file, fileDone: fileDone, fileSize: fileSize, totalDone: s.totalDone,
                                    totalBytes: s.bytesTotal, filesDone: s.filesDone, filesTotal: s.filesTotal,
                                    bytesPerSecond: s.meter.bytesPerSecond,
                                    secondsLeft: s.meter.secondsLeft(s.bytesTotal - s.totalDone))
        }
        if let report { events(.progress(report)) }
    }

    /// Partials eSSH left for `destination` from other sources (or an older version of this one), except `keep`:
    /// they go once a copy is in place. Each folder is listed at most once a run; folders the run made are not.
    func stalePartials(of destination: [UInt8], keep: [UInt8],
                       list: ([UInt8]) -> [[UInt8]]?) -> [[UInt8]] {
        let folder = PathBytes.directoryName(destination)
        let known: [[UInt8]]? = sharedState.withLock { s in
            s.madeFolders.contains(folder) ? [] : s.partialsIn[folder]
        }
        let names: [[UInt8]]
        if let known {
            names = known
        } else {
            let found = (list(folder.isEmpty ? [0x2E] : folder) ?? []).filter { name in
                name.first == 0x2E && name.count > 19 && name.suffix(5).elementsEqual(Array(".part".utf8))
            }
            sharedState.withLock { $0.partialsIn[folder] = found }
            names = found
        }
        let base = PathBytes.baseName(destination)
        return names.filter { PartialName.isPartial($0, of: base) && $0 != PathBytes.baseName(keep) }
            .map { PathBytes.join(folder, $0) }
    }

    // MARK: - Folders, links, -p

    /// The held destination folder of a download.
    func localDestination() throws(TransferError) -> LocalDestination {
        guard let root = localRoot.withLock({ $0 }) else {
            throw TransferError(.localFile, "The destination folder on this machine is not open.")
        }
        return root
    }

    private func makeDirectory(_ item: TransferItem) -> FileOutcome {
        let mode = (item.info?.mode ?? 0o755) | 0o700
        do throws(TransferError) {
            if upload {
                try remote.withMain { (c: SFTPClient) throws(SSHError) in
                    do throws(SSHError) {
                        try c.makeDirectory(item.destination, mode: mode)
                    } catch where error.sftpStatus == .failure || error.sftpStatus == .alreadyExists {
                        guard try RemoteFiles.info(c, item.destination, followLinks: true)?.kind == .directory else {
                            throw error
                        }
                    }
                }
                sharedState.withLock { _ = $0.madeFolders.insert(item.destination) }
            } else if try localDestination().makeDirectory(item.destination, mode: mode) {
                sharedState.withLock { _ = $0.madeFolders.insert(item.destination) }
            }
            return outcome(item, .directoryMade)
        } catch {
            return outcome(item, .failed(reason: error.message))
        }
    }

    private func makeLink(_ item: TransferItem, target: [UInt8]) -> FileOutcome {
        do throws(TransferError) {
            if upload {
                try remote.withMain { (c: SFTPClient) throws(SSHError) in
                    if try RemoteFiles.info(c, item.destination, followLinks: false)?.kind == .symlink {
                        try c.remove(item.destination)
                    }
                    try c.makeSymbolicLink(item.destination, pointingTo: target)
                }
            } else {
                try localDestination().makeLink(item.destination, target: target)
            }
            return outcome(item, .linkMade)
        } catch {
            return outcome(item, .failed(reason: error.message))
        }
    }

    /// -p on folders: modes and times once everything inside is written (deepest first).
    private func preserveFolderTimes(_ plan: TransferPlan) {
        for item in plan.items.reversed() where item.action == .makeDirectory {
            guard let info = item.info else { continue }
            if upload {
                _ = try? remote.withMain { (c: SFTPClient) throws(SSHError) in
                    try c.setStat(item.destination, SFTPAttributes(
                        permissions: info.mode, accessed: UInt32(clamping: info.accessed),
                        modified: UInt32(clamping: info.modified)))
                }
            } else {
                try? localDestination().setFolderAttributes(item.destination, info)
            }
        }
    }
}
