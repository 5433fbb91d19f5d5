import Fleet
import Foundation
import SSH
import TUIKit

/// Fleet commands in the interface, what outlives the Fleet screen: the servers marked on the Servers screen, the
/// command being typed, and the last run once its screen was left (the run shown is the screen's, `Screen.fleet`).
struct FleetState: Sendable {
    /// Names of the marked servers (kept by name, so a reload or a filter does not lose them).
    var marked: Set<String> = []
    /// The servers the typed command will run on.
    var pendingNames: [String] = []
    /// The last run after its screen was left: still stopping in the background (its late results land here), or
    /// finished. A new run replaces it.
    var lastRun: FleetRun?
    /// Ids for runs, so late results of an older run are ignored (a check before a run has the id of its run).
    var nextRunId = 1
    /// What the check before asking the password found (`FleetPasswordCheck`), by server name: those servers are
    /// reported so, not tried again.
    var checked: [String: FleetTarget.Problem] = [:]
    /// The fleet commands run before, oldest first (read from the store the first time `x` asks).
    var history: [String] = []
    /// Whether the stored history was asked for.
    var historyRequested = false
}

/// What `x` asks before a fleet run starts.
struct FleetQuestion: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The command line.
        case command
        /// The servers that would receive the password (`count` of them) are being checked (host keys, login
        /// methods) before it is asked.
        case checking(command: String, count: Int)
        /// One password for the chosen servers that log in with a password (`count` of them), asked once.
        case password(command: String, count: Int)
    }

    var kind: Kind
    var input: TextField
    /// Where Up/Down is in the fleet history (nil: editing a new line), and the line typed before Up.
    var historyIndex: Int?
    var draft = ""
    /// Ctrl-R's search of the fleet history; nil when closed.
    var search: HistorySearch?

    init(kind: Kind, input: TextField) {
        self.kind = kind
        self.input = input
    }
}

/// One run of a command on several servers, as the Fleet screen shows it.
struct FleetRun: Sendable {
    var id: Int
    var command: String
    var results: [FleetResult]
    var startedAt: Date
    var finishedAt: Date?
    /// Esc was pressed while it ran.
    var cancelling = false
    /// The row selected in the per-server table.
    var list = ListState()
    /// The grouped output, sanitised, and where it is scrolled.
    var grouped = ScrollbackBuffer(maxLines: 100_000)
    /// The groups so far, and each group's sanitised body lines by group id (see `addResult`).
    var grouper = FleetGrouper()
    var groupBodies: [Int: [String]] = [:]
    var groupedView = TextViewState(top: 0, left: 0, follow: false)
    /// The server whose full output is open (Enter), with its text and scroll position.
    var detail: Int?
    var detailText = ScrollbackBuffer(maxLines: 100_000)
    var detailView = TextViewState(top: 0, left: 0, follow: false)
    /// Reads the open server's output as it arrives (while it runs), so each chunk is sanitised once.
    var detailSanitizer = TextSanitizer(policy: .dropStyling)

    /// Bytes of each stream kept per running server, as the runner keeps (its result replaces them).
    static let liveLimit = FleetRunner.Options().outputLimit

    init(id: Int, command: String, names: [String], startedAt: Date) {
        self.id = id
        self.command = command
        results = names.map { FleetResult(name: $0, status: .waiting) }
        self.startedAt = startedAt
    }

    var isRunning: Bool { finishedAt == nil }

    /// When each running server took its slot, for its clock while it runs.
    var serverStarts: [Int: Date] = [:]

    /// Server `index` took a parallel slot (connecting now) at `at`; results of another run are ignored.
    mutating func started(id: Int, index: Int, at: Date) {
        guard id == self.id, results.indices.contains(index), !results[index].status.isFinal else { return }
        results[index].status = .running
        serverStarts[index] = at
    }

    /// Seconds server `index` has taken: its result's, or (running) since it started.
    func seconds(_ index: Int, now: Date) -> Double? {
        let result = results[index]
        if result.status.isFinal { return result.duration }
        return serverStarts[index].map { max(0, now.timeIntervalSince($0)) }
    }

    /// Output of server `index` while it runs: kept in its (unfinished) result, which the table's row and Enter show
    /// live; appended to the open server's text as it comes.
    mutating func receivedOutput(_ bytes: [UInt8], _ stream: SSH.OutputStream, id: Int, index: Int) {
        guard id == self.id, results.indices.contains(index), !results[index].status.isFinal else { return }
        var result = results[index]
        let kept = stream == .stdout ? result.stdout.count : result.stderr.count
        let room = max(0, Self.liveLimit - kept)
        if room < bytes.count { result.truncated = true }
        if stream == .stdout { result.stdout += bytes.prefix(room) } else { result.stderr += bytes.prefix(room) }
        results[index] = result
        if detail == index && room > 0 { detailText.append(detailSanitizer.feed(bytes.prefix(room))) }
    }

    /// Server `index` finished (any status).
    mutating func received(_ result: FleetResult, id: Int, index: Int) {
        guard id == self.id, results.indices.contains(index) else { return }
        addResult(result, at: index)
        if detail == index { detailText = Self.sanitised(FleetReport.body(result)) }
    }

    /// Opens server `index`'s full output: all of it once it finished, what came so far while it runs (new output
    /// then follows at the bottom, in the order it arrives).
    mutating func openDetail(_ index: Int) {
        guard results.indices.contains(index) else { return }
        detail = index
        let result = results[index]
        detailSanitizer = TextSanitizer(policy: .dropStyling)
        if result.status.isFinal {
            detailText = Self.sanitised(FleetReport.body(result))
        } else {
            // As it arrived: an unfinished last line stays open for the rest of it.
            detailText = ScrollbackBuffer(maxLines: 100_000)
            detailText.append(detailSanitizer.feed(result.stdout))
            detailText.append(detailSanitizer.feed(result.stderr))
        }
        detailView = TextViewState(top: 0, left: 0, follow: !result.status.isFinal)
    }

    /// Every server finished or was cancelled; false when `id` is another run.
    mutating func finished(id: Int, at: Date) -> Bool {
        guard id == self.id else { return false }
        finishedAt = at
        cancelling = false
        return true
    }

    /// The plain-text report (summary, one row per server, grouped output) — for mail and saving.
    func report(now: Date) -> String {
        FleetReport.text(command: command, results: results,
                         elapsed: (finishedAt ?? now).timeIntervalSince(startedAt))
    }

    /// Remote text made safe for the screen (escape sequences shown, never obeyed), as the session view does.
    static func sanitised(_ text: String) -> ScrollbackBuffer {
        var sanitizer = TextSanitizer(policy: .dropStyling)
        var buffer = ScrollbackBuffer(maxLines: 100_000)
        buffer.append(sanitizer.feed(text.utf8))
        buffer.append(sanitizer.finish())
        return buffer
    }

    /// Rebuilds the grouped output from scratch (keeping the scroll position).
    mutating func regroup() {
        grouper = FleetGrouper()
        groupBodies = [:]
        for (i, result) in results.enumerated() { if let (id, _) = grouper.add(result, at: i) { note(id, result) } }
        layOutGroups()
    }

    /// Takes in the result that just came in at `index`: it is hashed and sanitised once and joins its group, so
    /// hundreds of servers do not cost a regrouping of every result per arrival. Shows what `regroup` would.
    mutating func addResult(_ result: FleetResult, at index: Int) {
        results[index] = result
        if grouper.contains(index: index) { return regroup() }
        guard let (id, isNew) = grouper.add(result, at: index) else { return }
        if isNew { note(id, result) }
        layOutGroups()
    }

    /// The sanitised body lines of a new group (its first result's output).
    private mutating func note(_ id: Int, _ result: FleetResult) {
        guard groupBodies[id] == nil else { return }
        let body = Self.sanitised(FleetReport.body(result))
        groupBodies[id] = (body.firstLine..<body.endLine).compactMap { body[$0] }
    }

    /// The grouped output from the groups' headings and their cached bodies.
    private mutating func layOutGroups() {
        var out = ScrollbackBuffer(maxLines: 100_000)
        for (id, group) in grouper.groups {
            let heading = Self.sanitised(FleetReport.heading(group))
            for n in heading.firstLine..<heading.endLine { out.appendLine(heading[n] ?? "") }
            for line in groupBodies[id] ?? [] { out.appendLine(line) }
        }
        grouped = out
    }
}
