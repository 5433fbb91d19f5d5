import Basics
import Fleet
import Foundation
import SSH
import Synchronization
import Transfer

/// One copy on every server of a fleet run: the work `SSHFleetExecutor` does on each target's open session (a
/// `RemoteFiles` on it, then `Transfer.run`), so connecting, jump hosts, parallelism and statuses stay those of every
/// fleet run. Used by `essh cp --tag …` and the Files screen's "copy to the marked servers".
///
/// Each server's output is one line per file, the same on every server that holds the same bytes: `SHA256  PATH`
/// with `--checksum`, else `ok  PATH`; `failed  PATH: REASON`, `skipped  PATH: REASON`, `differs  PATH: …`. PATH is
/// the servers' side (the same path on each), so `FleetReport`'s grouping shows which servers differ. The target
/// ends `ok` when every file arrived, `failed` (exit 1) otherwise; a lost connection is the run's `failed` with its
/// sentence, a cancel `cancelled`.
public struct FleetCopy: Sendable {
    /// The copy; for a pull (`download`) `destination` is the local folder that receives a folder per server.
    public var request: TransferRequest
    /// Each target's transfer events, from its threads (for `--json` and the interface's rows).
    public var onEvent: @Sendable (_ target: String, _ event: TransferEvent) -> Void

    /// A fleet copy has no time limit of its own: a copy runs as long as it needs unless `--timeout` says otherwise
    /// (the fleet's default 60 s would cut a large file). Thirty days stands for "none" in `FleetRunner.Options`.
    public static let noTimeout: Double = 30 * 86_400

    public init(request: TransferRequest,
                onEvent: @escaping @Sendable (_ target: String, _ event: TransferEvent) -> Void = { _, _ in }) {
        self.request = request
        self.onEvent = onEvent
    }

    /// The executor that does this copy on each target.
    public func executor() -> SSHFleetExecutor {
        SSHFleetExecutor { target, session, _, _, cancel, output throws(SSHError) in
            try run(on: target.name, session: session, cancel: cancel) { line in
                Array(line.utf8).withUnsafeBytes { output(.stdout, $0) }
            }
        }
    }

    /// `root/NAME/`: where a pull from the server named `name` lands (`clush --rcopy`'s layout). A name is one folder:
    /// `/` becomes `_`, and `.` or `..` get a leading `_`.
    public static func pullFolder(root: [UInt8], server name: String) -> [UInt8] {
        var folder = Array(name.utf8).map { $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
        if folder.isEmpty || folder == Array(".".utf8) || folder == Array("..".utf8) { folder.insert(UInt8(ascii: "_"), at: 0) }
        var path = root
        if !path.isEmpty && path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        return path + folder + [UInt8(ascii: "/")]
    }

    /// The copy on one open session; `write` takes each output line (with its newline).
    func run(on name: String, session: SSHSession, cancel: Cancellation,
             write: (String) -> Void) throws(SSHError) -> CommandExit {
        var request = request
        if request.direction == .download {
            request.destination = Self.pullFolder(root: request.destination, server: name)
            do throws(TransferError) {
                try Self.makeFolders(request.destination)
            } catch {
                write("failed  \(shown(request.destination)): \(error.message)\n")
                return CommandExit(status: 1, signal: nil)
            }
        }
        let remote: RemoteFiles
        do throws(TransferError) {
            remote = try RemoteFiles(session: session, host: name, cancel: cancel)
        } catch {
            throw Self.sessionError(error) ?? SSHError(.protocolError, error.message, error.message)
        }
        defer { remote.close() }
        let upload = request.direction == .upload
        // Events come from the transfer's threads; the output sink is the work's own, so the lines wait here.
        let lines = Mutex<[String]>([])
        let summary = Transfer.run(request, remote: remote, cancel: cancel) { [onEvent] event in
            onEvent(name, event)
            if case .fileFinished(let outcome) = event, let line = Self.line(outcome, upload: upload) {
                lines.withLock { $0.append(line + "\n") }
            }
        }
        for line in lines.withLock({ $0 }) { write(line) }
        var allGood = summary.allArrived
        for outcome in summary.outcomes {
            if case .differ = outcome.checksum { allGood = false }
        }
        if let problem = summary.problem {
            if let lost = Self.sessionError(problem) { throw lost }
            write("failed  \(shown(request.destination)): \(problem.message)\n")
            allGood = false
        }
        return CommandExit(status: allGood ? 0 : 1, signal: nil)
    }

    /// A file's line, or nil for a folder made (its files have their own lines).
    static func line(_ outcome: FileOutcome, upload: Bool) -> String? {
        let path = shown(upload ? outcome.destination : outcome.source)
        switch outcome.status {
        case .directoryMade: return nil
        case .skipped(let reason): return "skipped  \(path): \(reason)"
        case .failed(let reason): return "failed  \(path): \(reason)"
        case .copied, .alreadyComplete, .linkMade:
            switch outcome.checksum {
            case .matched(let sha256)?: return "\(sha256)  \(path)"
            case .differ(let local, let remote)?: return "differs  \(path): sha256 \(local) here, \(remote) there"
            case .unavailable(let reason)?: return "ok  \(path) (no sha256: \(reason))"
            case nil: return "ok  \(path)"
            }
        }
    }

    /// A transfer's end that ends the server's run as the session's: the connection lost, or the run cancelled.
    static func sessionError(_ error: TransferError) -> SSHError? {
        switch error.kind {
        case .connection: return SSHError(.disconnected, error.message, error.message)
        case .cancelled: return SSHError(.cancelled, error.message, error.message)
        case .usage, .badInput, .remoteFile, .localFile: return nil
        }
    }

    /// `mkdir -p` for a pull's folder here.
    static func makeFolders(_ path: [UInt8]) throws(TransferError) {
        let local = LocalFiles()
        var prefix: [UInt8] = path.first == UInt8(ascii: "/") ? [UInt8(ascii: "/")] : []
        for part in path.split(separator: UInt8(ascii: "/")) {
            prefix += part
            if try local.info(prefix, followLinks: true) == nil { try local.makeDirectory(prefix, mode: 0o755) }
            prefix.append(UInt8(ascii: "/"))
        }
    }

    private static func shown(_ path: [UInt8]) -> String { TransferEndpoint.shown(path) }
    private func shown(_ path: [UInt8]) -> String { TransferEndpoint.shown(path) }
}
