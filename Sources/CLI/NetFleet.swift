import ArgumentParser
import Basics
import Fleet
import Foundation
import Inventory
import NetParsers
import Operations
import RemoteCommands
import SSH
import Synchronization
import TextWidth

/// `essh net --all | --tag TAG | --hosts-file FILE | SELECTORS KIND`: the quick command on many servers, through the
/// fleet path (`FleetSelection` picks and logs in as `essh exec` does, `FleetRunner` runs with its parallelism,
/// deadlines and statuses); on each session `QuickCommandRunner` finds the system (a saved server's stored OS first)
/// and runs its commands with their fallbacks. The tables become one, with a SERVER column.
struct NetFleet {
    let net: NetCommand
    let kind: ParseCommand.Kind

    func run() throws {
        let started = Date()
        let selection = try net.selection.selection(net.dest.map { [$0] } ?? [])
        let picked = try FleetSelection(connection: net.connection, port: net.port.port, selection: selection)
            .resolve(parallel: net.parallel, timeout: net.timeout)
        let names = picked.targets.map(\.name)
        var stored: [String: ServerOS] = [:]
        for (name, profile) in zip(names, picked.profiles) { stored[name] = profile.os }
        let outputs = Outputs()
        let dataKind = kind.dataKind
        let executor = SSHFleetExecutor { [stored] target, session, _, timeout, cancel, output throws(SSHError) in
            try Self.quickCommand(dataKind, os: stored[target.name], session: session, timeout: timeout,
                                  cancel: cancel, output: output) { outputs.set(target.name, $0) }
        }
        let runner = picked.runner(executor: executor)
        let progress = CountProgress(total: names.count, enabled: TerminalOutput.stderrIsTerminal) {
            "\($0)/\($1) done · \($2) ok"
        }
        let signals = SignalCancellation { runner.cancel() }
        let results = runner.run(picked.targets, command: kind.rawValue,
                                 onFinish: { _, result in progress.record(good: result.status == .ok) })
        signals.stop()
        progress.clear()
        let found = outputs.all
        record(results, found: found, profiles: picked.profiles, store: picked.store)
        for result in results where result.status != .ok {
            let why = result.error ?? Self.firstLine(result.stderrText) ?? result.statusText
            TerminalOutput.writeError(TextSanitizer.sanitize("\(result.name): essh: \(why)", policy: .visible) + "\n")
        }
        for result in results {
            guard let output = found[result.name], case .success(let items) = output.parsed else { continue }
            NetOutput.warn(items.warnings, source: "\(output.command.commandLine) on \(result.name)")
        }
        if net.json {
            TerminalOutput.write(bytes: Self.json(results, kind: dataKind, found: found))
        } else {
            let table = Self.table(results, kind: dataKind, found: found)
            TerminalOutput.write(bytes: Array(TableFormatter().render(table).utf8))
        }
        TerminalOutput.writeError(FleetSummary(results).line(elapsed: Date().timeIntervalSince(started)) + "\n")
        if runner.isCancelled { throw CommandFailure(.interrupted) }
        if !FleetSummary(results).allOK { throw CommandFailure(.failed) }
    }

    /// Runs the quick command on one server's session. A failure of SSH (timeout, lost connection, cancel) is the
    /// fleet's to report; a server where no command worked or none could be read exits 1 with why on stderr.
    static func quickCommand(_ kind: DataKind, os stored: ServerOS?, session: SSHSession, timeout: Double,
                             cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void,
                             keep: (QuickCommandOutput) -> Void) throws(SSHError) -> CommandExit {
        let runner = QuickCommandRunner(shell: session, timeout: timeout, cancel: cancel)
        func fail(_ message: String) -> CommandExit {
            var line = message + "\n"
            line.withUTF8 { output(.stderr, UnsafeRawBufferPointer($0)) }
            return CommandExit(status: 1, signal: nil)
        }
        do throws(RemoteCommandsError) {
            let result = try runner.run(kind, os: stored ?? .auto)
            keep(result)
            if case .failure(let error) = result.parsed {
                return fail("could not read the output of \(result.command.commandLine): \(error.description)")
            }
            return CommandExit(status: 0, signal: nil)
        } catch {
            if let ssh = error.ssh { throw ssh }
            return fail(error.message)
        }
    }

    /// Saved servers that answered: the connection, and the system when it was detected, as `essh net DEST` does.
    private func record(_ results: [FleetResult], found: [String: QuickCommandOutput], profiles: [ConnectionProfile],
                        store: Inventory?) {
        guard let store else { return }
        for (result, profile) in zip(results, profiles) {
            guard let name = profile.name, let output = found[result.name] else { continue }
            try? store.recordConnection(named: name, os: output.osWasDetected ? output.os : nil)
        }
    }

    /// One table: each server's rows under a SERVER column, in the order the servers were picked.
    static func table(_ results: [FleetResult], kind: DataKind, found: [String: QuickCommandOutput]) -> Table {
        var rows: [[String]] = []
        for result in results {
            guard let output = found[result.name], case .success(let items) = output.parsed else { continue }
            rows += items.table.rows.map { [result.name] + $0 }
        }
        let columns: [Table.Column]
        switch kind {
        case .interfaces: columns = Table.interfaces([]).columns
        case .routes: columns = Table.routes([]).columns
        case .sockets: columns = Table.sockets([]).columns
        }
        return Table(columns: [Table.Column("SERVER")] + columns, rows: rows)
    }

    /// `{"results":[{"name","status","command","os","duration_ms","error","interfaces"|"routes"|"sockets"}]}`: each
    /// server's items as `essh parse --json` gives them (null when none were read).
    static func json(_ results: [FleetResult], kind: DataKind, found: [String: QuickCommandOutput]) -> [UInt8] {
        func string(_ text: String?) -> String {
            guard let text, let data = try? JSONEncoder().encode(text) else { return "null" }
            return String(decoding: data, as: UTF8.self)
        }
        var out: [UInt8] = Array("{\"results\":[".utf8)
        for (n, result) in results.enumerated() {
            let output = found[result.name]
            var error = result.error
            if error == nil, result.status != .ok { error = Self.firstLine(result.stderrText) }
            var head = n == 0 ? "\n" : ",\n"
            head += "{\"name\":\(string(result.name)),\"status\":\(string(result.status.rawValue))"
            head += ",\"command\":\(string(output?.command.commandLine)),\"os\":\(string(output?.os?.rawValue))"
            head += ",\"duration_ms\":\(Int((result.duration * 1000).rounded())),\"error\":\(string(error)),"
            out += Array(head.utf8)
            if let output, case .success(let items) = output.parsed {
                out += items.jsonMember
            } else {
                out += Array("\(string(kind.rawValue)):null".utf8)
            }
            out += Array("}".utf8)
        }
        out += Array((results.isEmpty ? "]}\n" : "\n]}\n").utf8)
        return out
    }

    /// The first non-blank line of a server's stderr, for the line naming why it failed.
    static func firstLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }

    /// Each server's quick-command output, by name, as the workers finish.
    final class Outputs: Sendable {
        private let values = Mutex<[String: QuickCommandOutput]>([:])
        func set(_ name: String, _ output: QuickCommandOutput) { values.withLock { $0[name] = output } }
        var all: [String: QuickCommandOutput] { values.withLock { $0 } }
    }
}
