import Basics
import Foundation
import Synchronization
import TextWidth
import Transfer

/// What `essh cp` says about each file, as the transfer's events arrive (from its threads; one lock keeps lines
/// whole and the progress line out of their way). Without `--json`: a problem per file on stderr (failed, skipped,
/// started over, a checksum that differs), `SHA256  PATH` on stdout per file with `--checksum`, the progress line on
/// a terminal. With `--json`: one object per file on stdout. `arrived` tells the ending.
final class CopyReport: Sendable {
    private struct State {
        let progress: CopyProgress
        var arrived = 0
        var notArrived = 0
        var bytes: Int64 = 0
        var notes: Set<String> = []
    }

    /// The server as the person named it (a saved name, or the server part typed).
    private let server: String
    private let upload: Bool
    private let json: Bool
    private let showServerInProgress: Bool
    private let state: Mutex<State>

    init(server: String, upload: Bool, json: Bool, progress: Bool, showServerInProgress: Bool = false) {
        self.server = server
        self.upload = upload
        self.json = json
        self.showServerInProgress = showServerInProgress
        state = Mutex(State(progress: CopyProgress(enabled: progress)))
    }

    /// Files that arrived (copied, already complete, a folder or link made) and those that did not.
    var counts: (arrived: Int, notArrived: Int, bytes: Int64) {
        state.withLock { ($0.arrived, $0.notArrived, $0.bytes) }
    }

    func handle(_ event: TransferEvent) {
        state.withLock { s in
            switch event {
            case .progress(let p):
                s.progress.show(p, server: showServerInProgress ? server : nil)
            case .fileFinished(let outcome):
                s.progress.clear()
                // Folders and links made inside -r are not counted as files ("1 of 4 files did not arrive").
                if outcome.status != .directoryMade && outcome.status != .linkMade {
                    if Self.arrived(outcome) { s.arrived += 1 } else { s.notArrived += 1 }
                }
                s.bytes += outcome.bytesSent
                if json {
                    TerminalOutput.line(Self.json(outcome, server: server))
                } else {
                    say(outcome, notes: &s.notes)
                }
            case .planned, .fileStarted:
                break
            }
        }
    }

    func clear() { state.withLock { $0.progress.clear() } }

    /// Whether the file is where it should be, whole and (with `--checksum`) the same on both ends.
    static func arrived(_ outcome: FileOutcome) -> Bool {
        if case .differ = outcome.checksum { return false }
        switch outcome.status {
        case .copied, .alreadyComplete, .directoryMade, .linkMade: return true
        case .skipped, .failed: return false
        }
    }

    /// `web1:/etc/hosts` or `./hosts`: a path as the person would write it, bytes that are not text shown as \xNN.
    private func label(_ path: [UInt8], remote: Bool) -> String {
        (remote ? server + ":" : "") + TransferEndpoint.shown(path)
    }

    private func say(_ outcome: FileOutcome, notes: inout Set<String>) {
        let source = label(outcome.source, remote: !upload)
        let destination = label(outcome.destination, remote: upload)
        if let reason = outcome.restartReason {
            printError("\(destination): started over: \(reason).")
        }
        // The engine's reasons mostly name the file already ("… /srv/a on web1: permission denied"): then as it is.
        let named = [outcome.source, outcome.destination].contains { path in
            !path.isEmpty && (reasonText(outcome).contains(TransferEndpoint.shown(path)))
        }
        switch outcome.status {
        case .failed(let reason): printError(named ? reason : "\(source): \(reason)")
        case .skipped(let reason): printError(named ? "skipped: \(reason)" : "\(source): skipped: \(reason)")
        case .copied, .alreadyComplete, .directoryMade, .linkMade: break
        }
        switch outcome.checksum {
        case .matched(let sha256)?:
            TerminalOutput.line(sha256 + "  " + destination)
        case .differ(let local, let remote)?:
            printError("\(destination): the sha256 differs: \(local) here, \(remote) on \(server).")
        case .unavailable(let reason)?:
            if notes.insert(reason).inserted { printError("--checksum: \(reason); the files were not compared.") }
        case nil:
            break
        }
    }

    private func reasonText(_ outcome: FileOutcome) -> String {
        switch outcome.status {
        case .failed(let reason), .skipped(let reason): return reason
        case .copied, .alreadyComplete, .directoryMade, .linkMade: return ""
        }
    }

    /// One line of `--json`: `{"server","source","destination","status","bytes","sent","sha256","error",…}`. A name
    /// that is not UTF-8 has its bad bytes replaced by U+FFFD (the bytes themselves are in the file system).
    static func json(_ outcome: FileOutcome, server: String) -> String {
        var fields: [(String, String)] = [
            ("server", quoted(server)),
            ("source", quoted(String(decoding: outcome.source, as: UTF8.self))),
            ("destination", quoted(String(decoding: outcome.destination, as: UTF8.self))),
        ]
        var error: String?
        var sha256: String?
        let status: String
        switch outcome.status {
        case .copied: status = "copied"
        case .alreadyComplete: status = "already-complete"
        case .directoryMade: status = "directory-made"
        case .linkMade: status = "link-made"
        case .skipped(let reason):
            status = "skipped"
            error = reason
        case .failed(let reason):
            status = "failed"
            error = reason
        }
        var note: String?
        switch outcome.checksum {
        case .matched(let hash)?: sha256 = hash
        case .differ(let local, let remote)?: error = "the sha256 differs: \(local) here, \(remote) on \(server)"
        case .unavailable(let reason)?: note = reason
        case nil: break
        }
        fields.append(("status", quoted(status)))
        fields.append(("bytes", String(outcome.size)))
        fields.append(("sent", String(outcome.bytesSent)))
        fields.append(("sha256", sha256.map(quoted) ?? "null"))
        fields.append(("error", error.map(quoted) ?? "null"))
        if let from = outcome.resumedFrom { fields.append(("resumed_from", String(from))) }
        if let why = outcome.restartReason { fields.append(("restarted", quoted(why))) }
        if let proof = outcome.resumeProof { fields.append(("resume_proof", quoted(proof.rawValue))) }
        if let note { fields.append(("note", quoted(note))) }
        fields.append(("seconds", String(format: "%.3f", outcome.seconds)))
        return "{" + fields.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A server that could not be copied to at all, as a `--json` line.
    static func json(server: String, status: String, error: String?) -> String {
        "{" + [("server", quoted(server)), ("status", quoted(status)), ("error", error.map(quoted) ?? "null")]
            .map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(text) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
