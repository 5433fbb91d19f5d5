import ArgumentParser
import Dispatch
import Basics
import Fleet
import Foundation
import LocalProcess
import Inventory
import Mail
import Reachability
import Operations
import SSH
import Synchronization
import TextWidth

/// `essh exec --all | --tag TAG | --hosts-file FILE | SELECTORS -- COMMAND`: one command on many servers at once.
/// Output lines come as they arrive, each prefixed `name: ` (stderr lines on stderr), or grouped (`--group`) or as JSON
/// (`--json`) at the end; a summary line goes to stderr. Exit status 0 only when every server ran the command and it
/// exited 0, 130 when interrupted (what finished is still printed), 1 otherwise.
struct FleetExec {
    let exec: ExecCommand
    /// `--mail`: the whole report (summary, one row per server, grouped output) is mailed at the end.
    let mail: ExecMail?

    func run() throws {
        let started = Date()
        let selection = try exec.fleet.selection.selection(exec.dest.map { [$0] } ?? [])
        let picked = try FleetSelection(connection: exec.connection, port: exec.port.port, selection: selection)
            .resolve(parallel: exec.fleet.parallel, timeout: exec.timeout)
        let runner = picked.runner()
        let command = exec.command.joined(separator: " ")
        let streaming = !exec.fleet.json && !exec.fleet.group
        let printer = LinePrinter(names: picked.targets.map(\.name), stream: streaming)
        // While --group or --json hold the output back, a terminal sees how far the run is.
        let progress = CountProgress(total: picked.targets.count,
                                     enabled: !streaming && TerminalOutput.stderrIsTerminal) {
            "\($0)/\($1) done · \($2) ok"
        }
        let signals = SignalCancellation { runner.cancel() }
        let results = runner.run(picked.targets, command: command,
                                 onOutput: { i, stream, bytes in printer.output(i, stream, bytes) },
                                 onFinish: { i, result in
                                     printer.finish(i, result)
                                     progress.record(good: result.status == .ok)
                                 })
        signals.stop()
        progress.clear()
        if exec.fleet.json {
            TerminalOutput.line(FleetJSON.encode(results))
        } else if exec.fleet.group {
            let text = FleetReport.grouped(results)
            // On a terminal remote text is shown, never obeyed; into a pipe it goes as it came.
            TerminalOutput.write(isatty(STDOUT_FILENO) != 0 ? TextSanitizer.sanitize(text, policy: .dropStyling) : text)
        }
        let summary = FleetSummary(results)
        let elapsed = Date().timeIntervalSince(started)
        TerminalOutput.writeError(summary.line(elapsed: elapsed) + "\n")
        if let mail {
            try send(mail, FleetReport.text(command: command, results: results, elapsed: elapsed), command: command,
                     count: results.count)
        }
        if runner.isCancelled { throw CommandFailure(.interrupted) }
        if !summary.allOK { throw CommandFailure(.failed) }
    }

    /// Mails the report as plain text (no single-server status block: the report has one row per server). Throws
    /// the exit status when the mail was not sent (75: kept in the outbox; see `MailOptions.send`).
    func send(_ mail: ExecMail, _ report: String, command: String, count: Int) throws {
        let subject = mail.subject ?? CommandReport(server: "\(count) server\(count == 1 ? "" : "s")", user: "",
                                                    command: command, exitStatus: nil, startedAt: Date(),
                                                    duration: 0).defaultSubject
        let message = OutputMail(from: mail.settings.sender, to: mail.recipients, subject: subject, report: nil,
                                 output: Array(report.utf8), maxInline: mail.settings.maxInline,
                                 attachmentName: "essh-fleet-report.txt")
        try mail.options.send(message, settings: mail.settings)
    }
}

/// Writes each server's output as `name: line` lines the moment a line is complete (stdout lines to stdout, stderr
/// lines to stderr), then what went wrong. Called by the runner one callback at a time. Lines going to a terminal
/// are sanitised (escape sequences shown, not obeyed: two hundred servers' output interleaved must not be able to
/// move the cursor or retitle the window); into a pipe or file they go byte for byte.
final class LinePrinter: Sendable {
    private let names: [String]
    private let stream: Bool
    private let sanitiseOut = isatty(STDOUT_FILENO) != 0
    private let sanitiseErr = isatty(STDERR_FILENO) != 0
    /// A line is kept up to this many bytes (the per-server output cap); the rest of it is dropped and counted.
    private let lineCap: Int
    /// One server's unfinished line on one stream.
    private struct Partial {
        var bytes: [UInt8] = []
        /// Bytes of this line dropped beyond `lineCap`.
        var dropped = 0
    }
    private struct Key: Hashable {
        let server: Int
        let stream: SSH.OutputStream
    }
    /// Each server's unfinished line per stream; the lock also keeps whole lines from interleaving.
    private let partial = Mutex<[Key: Partial]>([:])

    init(names: [String], stream: Bool, lineCap: Int = 1 << 20) {
        // Saved names are plain text now, but a database from before the rule may hold anything.
        self.names = names.map { TextSanitizer.sanitize($0, policy: .visible).replacingOccurrences(of: "\n", with: " ") }
        self.stream = stream
        self.lineCap = lineCap
    }

    /// `name: ` before the line (without its newline), sanitised for a terminal; every line the sanitiser makes
    /// (a lone CR ends one) gets the prefix.
    private func prefixed(_ i: Int, _ line: ArraySlice<UInt8>, _ which: SSH.OutputStream) -> [UInt8] {
        let prefix = names[i] + ": "
        guard which == .stdout ? sanitiseOut : sanitiseErr else {
            return Array(prefix.utf8) + line + [UInt8(ascii: "\n")]
        }
        let text = TextSanitizer.sanitize(String(decoding: line, as: UTF8.self), policy: .dropStyling)
        return Array((prefix + text.replacingOccurrences(of: "\n", with: "\n" + prefix) + "\n").utf8)
    }

    /// Linear in the bytes received: each chunk is scanned once, the unfinished line is extended in place (taken
    /// out of the dictionary, so it is never copied) and never holds more than `lineCap` bytes.
    func output(_ i: Int, _ which: SSH.OutputStream, _ bytes: UnsafeRawBufferPointer) {
        guard stream else { return }
        partial.withLock { partial in
            let key = Key(server: i, stream: which)
            var line = partial.removeValue(forKey: key) ?? Partial()
            var out: [UInt8] = []
            var start = 0
            // memchr: one pass over the chunk at memory speed, whatever the build.
            while start < bytes.count, let base = bytes.baseAddress,
                  let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) {
                let nl = base.distance(to: UnsafeRawPointer(hit))
                keep(&line, bytes[start..<nl])
                out += complete(i, &line, which)
                start = nl + 1
            }
            keep(&line, bytes[start...])
            partial[key] = line
            if !out.isEmpty { write(which, out) }
        }
    }

    private func keep(_ line: inout Partial, _ bytes: Slice<UnsafeRawBufferPointer>) {
        let room = max(0, lineCap - line.bytes.count)
        line.bytes.append(contentsOf: bytes.prefix(room))
        line.dropped += max(0, bytes.count - room)
    }

    /// The finished line, prefixed, and a note on stderr when part of it was dropped; `line` starts anew.
    private func complete(_ i: Int, _ line: inout Partial, _ which: SSH.OutputStream) -> [UInt8] {
        defer { line = Partial() }
        if line.dropped > 0 {
            let note = "\(names[i]): essh: a line longer than \(ByteCountText.text(lineCap)) was cut "
                + "(\(line.dropped) bytes dropped)\n"
            write(.stderr, Array((sanitiseErr ? TextSanitizer.sanitize(note, policy: .dropStyling) : note).utf8))
        }
        return prefixed(i, line.bytes[...], which)
    }

    func finish(_ i: Int, _ result: FleetResult) {
        guard stream else { return }
        partial.withLock { partial in
            for which in [SSH.OutputStream.stdout, .stderr] {
                if var rest = partial.removeValue(forKey: Key(server: i, stream: which)),
                   !rest.bytes.isEmpty || rest.dropped > 0 {
                    write(which, complete(i, &rest, which))
                }
            }
        }
        var note: String?
        if let error = result.error { note = error } else if result.status == .failed, let exit = result.exitStatus {
            note = "exit status \(exit)"
        }
        guard let note else { return }
        // The error can hold text the server chose (a signal name, the login methods it offers) and the name text
        // the user typed: shown, never obeyed, on a terminal, like the output lines.
        let line = "\(names[i]): essh: \(note)"
        write(.stderr, Array(((sanitiseErr ? TextSanitizer.sanitize(line, policy: .dropStyling) : line) + "\n").utf8))
    }

    /// Through the one output path: a closed stdout ends the run with 141, as for every command.
    private func write(_ which: SSH.OutputStream, _ bytes: [UInt8]) {
        if which == .stdout { TerminalOutput.write(bytes: bytes) } else { TerminalOutput.writeError(bytes: bytes) }
    }
}
