import Basics
import Fleet
import Foundation
import Operations
import TextWidth
import Transfer

/// `essh cp --all | --tag TAG | NAME,NAME,... SRC... :PATH` (a push) or `... :PATH... DIR` (a pull into
/// `DIR/SERVER/`): one copy on every server, through the fleet path (`FleetSelection` picks and logs in as
/// `essh exec` does; `FleetCopy` is the work on each session). The servers' lines are grouped at the end (servers
/// with the same files and checksums together), a summary goes to stderr; `--json` prints one object per file (and
/// one per server that could not be reached) as they finish.
struct CopyFleet {
    let command: CopyCommand
    let selectors: [String]
    let operands: CopyOperands

    func run() throws {
        let started = Date()
        let options = try command.options()
        if operands.upload { try CopyOne.checkSources(operands.sources) }
        let selection = try command.selection.selection(selectors)
        let picked = try FleetSelection(connection: command.connection, port: command.port.port, selection: selection)
            .resolve(parallel: nil, timeout: command.timeout ?? FleetCopy.noTimeout)
        let request = TransferRequest(direction: operands.upload ? .upload : .download, sources: operands.sources,
                                      destination: operands.destination, options: options)
        let json = command.json
        let copy = FleetCopy(request: request) { name, event in
            guard json, case .fileFinished(let outcome) = event else { return }
            TerminalOutput.line(CopyReport.json(outcome, server: name))
        }
        let runner = picked.runner(executor: copy.executor())
        let progress = CountProgress(total: picked.targets.count, enabled: TerminalOutput.stderrIsTerminal) {
            "\($0)/\($1) servers done · \($2) ok"
        }
        let signals = SignalCancellation { runner.cancel() }
        let results = runner.run(picked.targets, command: "cp", onFinish: { _, result in
            if json && result.status != .ok && result.exitStatus == nil {
                TerminalOutput.line(CopyReport.json(server: result.name, status: result.status.rawValue,
                                                    error: result.error))
            }
            progress.record(good: result.status == .ok)
        })
        signals.stop()
        progress.clear()
        if !json {
            let text = FleetReport.grouped(results)
            // Names and reasons can hold what a server chose: shown, never obeyed, on a terminal.
            TerminalOutput.write(isatty(STDOUT_FILENO) != 0 ? TextSanitizer.sanitize(text, policy: .dropStyling) : text)
        }
        let summary = FleetSummary(results)
        TerminalOutput.writeError(summary.line(elapsed: Date().timeIntervalSince(started)) + "\n")
        if runner.isCancelled { throw CommandFailure(.interrupted) }
        if !summary.allOK { throw CommandFailure(.failed) }
    }
}
