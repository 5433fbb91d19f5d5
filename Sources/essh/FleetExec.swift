import ArgumentParser
import Dispatch
import Fleet
import Foundation
import LocalProcess
import Inventory
import Mail
import Reachability
import SSH
import TUIKit

/// `essh exec --all | --tag TAG | NAME,NAME... -- COMMAND`: one command on many servers at once. Output lines come
/// as they arrive, each prefixed `name: ` (stderr lines on stderr), or grouped (`--group`) or as JSON (`--json`) at
/// the end; a summary line goes to stderr. Exit status 0 only when every server ran the command and it exited 0,
/// 130 when interrupted (what finished is still printed), 1 otherwise.
struct FleetExec {
    let exec: ExecCommand
    /// `--mail`: the whole report (summary, one row per server, grouped output) is mailed at the end.
    let mail: ExecMail?

    func run() throws {
        let started = Date()
        let (targets, settings) = try resolveTargets()
        let parallel = FleetRunner.parallel(exec.fleet.parallel ?? settings.parallel,
                                            openFiles: FileDescriptorLimit.raiseToHard())
        let timeout = exec.timeout ?? settings.timeout
        let command = exec.command.joined(separator: " ")
        let runner = FleetRunner(options: .init(parallel: parallel, timeout: timeout))
        let streaming = !exec.fleet.json && !exec.fleet.group
        let printer = LinePrinter(names: targets.map(\.name), stream: streaming)
        // While --group or --json hold the output back, a terminal sees how far the run is.
        let progress = CountProgress(total: targets.count, enabled: !streaming && TerminalOutput.stderrIsTerminal) {
            "\($0)/\($1) done · \($2) ok"
        }
        let signals = FleetSignals { runner.cancel() }
        let results = runner.run(targets, command: command,
                                 onOutput: { i, stream, bytes in printer.output(i, stream, bytes) },
                                 onFinish: { i, result in
                                     printer.finish(i, result)
                                     progress.record(good: result.status == .ok)
                                 })
        signals.stop()
        progress.clear()
        if exec.fleet.json {
            print(FleetJSON.encode(results))
        } else if exec.fleet.group {
            let text = FleetReport.grouped(results)
            // On a terminal remote text is shown, never obeyed; into a pipe it goes as it came.
            print(isatty(STDOUT_FILENO) != 0 ? TextSanitizer.sanitize(text, policy: .dropStyling) : text,
                  terminator: "")
        }
        let summary = FleetSummary(results)
        let elapsed = Date().timeIntervalSince(started)
        FileHandle.standardError.write(Data((summary.line(elapsed: elapsed) + "\n").utf8))
        if let mail {
            try send(mail, FleetReport.text(command: command, results: results, elapsed: elapsed), command: command,
                     count: results.count)
        }
        if runner.isCancelled { throw ExitCode(130) }
        if !summary.allOK { throw ExitCode(1) }
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

    /// The fleet settings stored in the database (`fleet.parallel`, `fleet.timeout`).
    struct Settings {
        var parallel = FleetRunner.defaultParallel
        var timeout = FleetRunner.defaultTimeout
    }

    /// The servers picked by --all, --tag or the comma list, as targets, and the stored settings.
    func resolveTargets() throws -> ([FleetTarget], Settings) {
        let database = exec.connection.database
        let store: Inventory? = FileManager.default.fileExists(atPath: database.path) ? try database.open() : nil
        var settings = Settings()
        if let store {
            if let text = try? store.setting("fleet.parallel"), let n = Int(text), (1...1024).contains(n) {
                settings.parallel = n
            }
            if let text = try? store.setting("fleet.timeout"), let n = Double(text), n > 0 { settings.timeout = n }
        }
        var picked: [(name: String, saved: Server?)] = []
        if exec.fleet.all || exec.fleet.tag != nil {
            guard let store else {
                throw ValidationError("No database at \(database.path) yet: add servers with essh servers add first.")
            }
            let tag = exec.fleet.tag?.trimmingCharacters(in: .whitespaces)
            let servers = try CommandFailure.guarding { () throws(InventoryError) in try store.servers(taggedWith: tag) }
            if servers.isEmpty {
                throw ValidationError(tag.map { "No saved server has the tag \($0) (see essh servers list)." }
                                      ?? "No servers are saved yet: add some with essh servers add.")
            }
            picked = servers.map { ($0.name, $0) }
        } else {
            var seen: Set<String> = []
            for part in (exec.dest ?? "").split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, seen.insert(name).inserted else { continue }
                var saved: Server?
                if let store, !name.contains("@"), !name.contains(":") {
                    saved = try CommandFailure.guarding { () throws(InventoryError) in try store.findServer(named: name) }
                }
                picked.append((name, saved))
            }
        }
        let password = try fleetPassword(needsPassword: picked.contains { $0.saved?.auth == .password })
        var policy = exec.connection.hostKeyPolicy.flatMap(HostKeyPolicy.init(rawValue:)) ?? .strict
        if policy == .ask { policy = .strict }
        let targets = try picked.map { name, saved -> FleetTarget in
            let destination: Destination
            if let saved {
                destination = Destination(user: saved.user, host: saved.host, port: saved.port)
            } else {
                do { destination = try Destination(parsing: name) } catch let error as SSHError {
                    throw ValidationError("\(name): \(error.message)")
                }
            }
            do {
                var options = try exec.connection.connectOptions(saved: saved, destination: destination)
                options.hostKeyPolicy = policy
                let given: String?
                switch saved?.auth {
                case .password?: given = password.value
                case nil: given = password.fromFile ? password.value : nil
                case .key?, .agent?:
                    // A server saved with a key or the agent never sees the password, whatever it offers.
                    given = nil
                    options.allowPassword = false
                    options.allowKeyboardInteractive = false
                }
                return FleetTarget(name: name, options: options,
                                   prompter: TerminalPrompter(passwordFromFile: given, interactive: false))
            } catch let error as ValidationError {
                let placeholder = ConnectOptions(host: destination.host, user: "", knownHostsFile: "")
                return FleetTarget(name: name, options: placeholder, problem: error.message)
            }
        }
        return (targets, settings)
    }

    /// A fleet never stops to ask in the middle: a password comes from --password-file, or is asked once on the
    /// terminal before anything starts (when a picked server logs in with a password). It goes to the servers saved
    /// as logging in with a password; a `--password-file` password also goes to the destinations named on the
    /// command line that are not saved servers (the user named both, as with `essh exec user@host`), after their
    /// keys and the agent. Servers saved with a key or the agent never get it.
    func fleetPassword(needsPassword: Bool) throws -> (value: String?, fromFile: Bool) {
        if let file = exec.connection.passwordFile {
            return (try ConnectionOptions.readPasswordFile(file), true)
        } else if needsPassword, TerminalPrompter.hasTerminal {
            return (TerminalPrompter.ask("Password for the servers that log in with a password: ", echo: false), false)
        }
        return (nil, false)
    }
}

/// Writes each server's output as `name: line` lines the moment a line is complete (stdout lines to stdout, stderr
/// lines to stderr), then what went wrong. Called by the runner one callback at a time. Lines going to a terminal
/// are sanitised (escape sequences shown, not obeyed: two hundred servers' output interleaved must not be able to
/// move the cursor or retitle the window); into a pipe or file they go byte for byte.
final class LinePrinter: @unchecked Sendable {
    private let names: [String]
    private let stream: Bool
    private let sanitiseOut = isatty(STDOUT_FILENO) != 0
    private let sanitiseErr = isatty(STDERR_FILENO) != 0
    private var partial: [Int: [SSH.OutputStream: [UInt8]]] = [:]

    init(names: [String], stream: Bool) {
        self.names = names
        self.stream = stream
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

    func output(_ i: Int, _ which: SSH.OutputStream, _ bytes: UnsafeRawBufferPointer) {
        guard stream else { return }
        var pending = partial[i, default: [:]][which, default: []]
        pending.append(contentsOf: bytes)
        var start = 0
        var out: [UInt8] = []
        while let nl = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            out += prefixed(i, pending[start..<nl], which)
            start = nl + 1
        }
        partial[i, default: [:]][which] = Array(pending[start...])
        if !out.isEmpty { write(which, out) }
    }

    func finish(_ i: Int, _ result: FleetResult) {
        guard stream else { return }
        for which in [SSH.OutputStream.stdout, .stderr] {
            if let rest = partial[i]?[which], !rest.isEmpty { write(which, prefixed(i, rest[...], which)) }
        }
        partial[i] = nil
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

    private func write(_ which: SSH.OutputStream, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = writeAll(which == .stdout ? STDOUT_FILENO : STDERR_FILENO, $0) }
    }
}

/// SIGINT, SIGTERM and SIGHUP cancel the run (finished results are kept and printed).
final class FleetSignals: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(_ onSignal: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler(handler: onSignal)
            source.resume()
            sources.append(source)
        }
    }

    func stop() {
        for s in sources { s.cancel() }
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
    }
}
