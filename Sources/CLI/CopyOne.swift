import Basics
import Foundation
import Transfer

/// `essh cp` between here and one server: the server part resolved and connected as `essh exec` connects (saved
/// server, ssh_config, jump hosts), a `RemoteFiles` on the session, `Transfer.run`, and the ending from what arrived.
struct CopyOne {
    let command: CopyCommand
    /// The server part as typed (`web1`, `admin@10.0.0.5:2222`).
    let server: String
    let operands: CopyOperands

    func run() throws {
        let options = try command.options()
        if operands.upload { try Self.checkSources(operands.sources) }
        let started = Date()
        try command.connection.withSession(server, port: command.port.choice) { session, target, cancel, _ in
            target.recordConnection()
            let name = target.server?.name ?? server
            let remote: RemoteFiles
            do throws(TransferError) {
                remote = try RemoteFiles(session: session, host: name, cancel: cancel)
            } catch {
                throw Self.failure(error)
            }
            defer { remote.close() }
            let request = TransferRequest(direction: operands.upload ? .upload : .download, sources: operands.sources,
                                          destination: operands.destination, options: options)
            let report = CopyReport(server: name, upload: operands.upload, json: command.json,
                                    progress: TerminalOutput.stderrIsTerminal)
            let summary = Transfer.run(request, remote: remote, cancel: cancel) { report.handle($0) }
            report.clear()
            try Self.end(summary, report: report, resume: command.resume, elapsed: Date().timeIntervalSince(started),
                         quiet: command.json)
        }
    }

    /// The sources of an upload exist here (else nothing is copied and the command ends with 2, before connecting).
    static func checkSources(_ sources: [[UInt8]]) throws {
        for source in sources {
            var st = stat()
            let path = String(decoding: source, as: UTF8.self)
            let failure: Int32? = (source + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &st) == 0 ? nil : errno }
            }
            if let failure {
                let reason = String(cString: strerror(failure))
                throw CommandFailure(.badInput, "\(TransferEndpoint.shown(source)): \(reason.lowercased()); nothing "
                                     + "was copied.", detail: path)
            }
        }
    }

    /// A transfer's error as the command's ending: its sentence, its status from the one table.
    /// A cancel (Ctrl-C) ends quietly: the person pressed it and knows.
    static func failure(_ error: TransferError) -> CommandFailure {
        error.kind == .cancelled ? CommandFailure(.interrupted) : CommandFailure(ExitStatus(for: error), error.message)
    }

    /// How the copy ends: interrupted (130, the partial kept for --resume), the transfer stopped as a whole (its
    /// error's status), a file that did not arrive (1; each said already), or done (a summary line on a terminal).
    static func end(_ summary: TransferSummary, report: CopyReport, resume: Bool, elapsed: Double, quiet: Bool) throws {
        let counts = report.counts
        if let problem = summary.problem {
            if problem.kind == .cancelled {
                if !quiet {
                    printError("Interrupted after \(CountText.text(counts.arrived, "file")); a partial copy is kept "
                               + "beside its destination: run the same command with --resume to continue it.")
                }
                throw CommandFailure(.interrupted)
            }
            throw failure(problem)
        }
        if counts.notArrived > 0 {
            let all = CountText.text(counts.arrived + counts.notArrived, "file")
            throw CommandFailure(.failed, "\(counts.notArrived) of \(all) did not arrive (said above).")
        }
        if !quiet && TerminalOutput.stderrIsTerminal {
            TerminalOutput.writeError("Copied \(CountText.text(counts.arrived, "file")), "
                                      + "\(ByteCountText.decimal(counts.bytes)) sent in "
                                      + "\(DurationText.text(elapsed, .elapsed)).\n")
        }
    }
}
