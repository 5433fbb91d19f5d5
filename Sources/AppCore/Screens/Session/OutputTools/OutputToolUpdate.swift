import Foundation
import Mail
import NetParsers
import TUIKit

/// The last command's output leaving the session: mailed (F6), saved to a file (F7), piped into a local command
/// (`|` on an empty command line), and the outbox sent again (F9).
extension Update {
    /// F6, F7, `|` and F9 in a session (`action` from the session's table): opens the form over the last output,
    /// or sends the outbox again; nil when the key is the session's (`|` on a command line being typed).
    static func openOutputTool(_ state: inout AppState, _ action: SessionAction?) -> [Effect]? {
        guard let session = state.session else { return nil }
        if action == .retryMail {
            state.notice = "Sending the outbox again…"
            return [.retryMail(sendmail: state.settings.sendmailPath)]
        }
        guard action == .mail || action == .save || action == .pipe else { return nil }
        // `|` is a pipe only on an empty command line; otherwise it is typed (`ps | grep`).
        if action == .pipe && (!session.input.text.isEmpty || session.search != nil) { return nil }
        if session.running != nil {
            state.notice = "A command is still running: wait for it (Esc stops it), then F6/F7/| take its output."
            return []
        }
        guard let capture = session.capture else {
            state.notice = "No output yet: run a command first."
            return []
        }
        switch action {
        case .mail:
            let report = self.report(capture, session: session, localUser: state.localUser)
            state.outputTool = .mail(to: state.settings.mailRecipient, subject: report.defaultSubject,
                                     tableAvailable: showsTable(session))
        case .save:
            state.outputTool = .save(path: defaultSavePath(session, now: state.now))
        default:
            state.outputTool = .pipe(command: "")
        }
        state.notice = nil
        return []
    }

    /// Keys in the open form (the session's, or the mail form over the fleet results): Tab / arrows move between
    /// the fields, Enter sends (the form stays open, saying why, when something is wrong), Esc closes, other keys
    /// edit the focused field and clear the error.
    static func outputToolKey(_ state: inout AppState, _ tool: OutputToolState, _ action: OutputToolAction?,
                              _ key: Key) -> [Effect] {
        var tool = tool
        switch action {
        case .cancel?:
            state.outputTool = nil
            return []
        case .submit?:
            // nil: something is wrong (the form says what) and stays open.
            let effects = state.screen.kind == .fleet ? submitFleetMail(&state, &tool) : submit(&state, &tool)
            state.outputTool = effects == nil ? tool : nil
            return effects ?? []
        case .toggleTable? where tool.tableAvailable:
            tool.sendTable.toggle()
        case .nextField?: tool.focus = (tool.focus + 1) % tool.fields.count
        case .previousField?: tool.focus = (tool.focus + tool.fields.count - 1) % tool.fields.count
        case .toggleTable?, nil:
            tool.error = nil
            _ = tool.fields[tool.focus].input.handle(key)
        }
        state.outputTool = tool
        return []
    }

    private static func submit(_ state: inout AppState, _ tool: inout OutputToolState) -> [Effect]? {
        guard let session = state.session, let capture = session.capture else { return [] }
        switch tool.kind {
        case .mail:
            let table = tool.sendTable ? session.quick?.table : nil
            return mailEffect(&state, &tool, report: report(capture, session: session, localUser: state.localUser),
                              output: table.map { Array(TableFormatter().render($0).utf8) } ?? capture.keptBytes)
        case .save:
            let path = tool.text(0).trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else {
                tool.error = "Type a file name."
                return nil
            }
            state.notice = nil
            return [.saveOutput(path: path, bytes: currentBytes(session))]
        case .pipe:
            let command = tool.text(0).trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty else {
                tool.error = "Type a command, e.g. less or wc -l."
                return nil
            }
            return [.handOver(.pipe(command: command, input: currentBytes(session)))]
        }
    }

    /// The fleet results' mail form: the whole report (summary, one row per server, grouped output).
    private static func submitFleetMail(_ state: inout AppState, _ tool: inout OutputToolState) -> [Effect]? {
        guard let run = state.fleetRun else { return [] }
        return mailEffect(&state, &tool, report: nil, output: Array(run.report(now: state.now).utf8),
                          attachmentName: "essh-fleet-report.txt")
    }

    /// How `Effect.sendMail` went.
    static func mailFinished(_ state: inout AppState, _ result: Result<MailDelivery.Outcome, MailError>,
                         to: [String]) {
        switch result {
        case .success(.sent):
            state.notice = "Mail sent to \(to.joined(separator: ", "))."
        case .success(.queued(let id, let error)):
            state.notice = "Mail not sent; kept in the outbox as #\(id) (F9 sends it again)."
            state.dialog = DialogState(purpose: .notice, title: "Mail not sent", message: """
                \(error.message) The message is kept in the outbox as #\(id): F9 in a session sends it again \
                (or `essh mail --retry`).
                """, buttons: ["OK"])
        case .success(.saved(let error, let outboxError, let savedTo)):
            state.notice = "Mail not sent."
            state.dialog = DialogState(purpose: .notice, title: "Mail not sent", message: """
                \(error.message) The outbox could not keep it either (\(outboxError)); \
                \(savedTo.map { "it was appended to \($0)." } ?? "it could not be saved.")
                """, buttons: ["OK"])
        case .failure(let error):
            state.notice = "Mail not sent."
            state.dialog = DialogState(purpose: .notice, title: "Mail not sent", message: error.message,
                                       buttons: ["OK"])
        }
    }

    /// How `Effect.retryMail` went.
    static func mailRetried(_ state: inout AppState, _ results: [MailDelivery.Retry], error: String?) {
        if let error {
            state.notice = "The outbox could not be read: \(error)"
        } else if results.isEmpty {
            state.notice = "The outbox is empty."
        } else {
            let failed = results.filter { $0.error != nil }
            let sent = results.count - failed.count
            state.notice = "Outbox: \(sent) sent, \(failed.count) still waiting."
            if let first = failed.first?.error {
                state.dialog = DialogState(purpose: .notice, title: "Mail still not sent", message: """
                    \(sent) sent, \(failed.count) still waiting. \(first.message)
                    """, buttons: ["OK"])
            }
        }
    }

    /// How `Effect.saveOutput` went.
    static func outputSaved(_ state: inout AppState, path: String, error: String?) {
        if let error {
            guard state.screen.kind == .session else {
                state.notice = "The output was not saved: \(error)"
                return
            }
            // The form comes back with the name, so a taken name can be changed at once.
            var form = OutputToolState.save(path: path)
            form.error = error
            state.outputTool = form
        } else {
            state.notice = "Saved the output to \(path) (readable by you only)."
        }
    }

    /// The status block's facts for the captured command.
    static func report(_ capture: OutputCapture, session: SessionState, localUser: String) -> CommandReport {
        let end = capture.finishedAt ?? capture.startedAt
        let target = session.target
        let server = target.name ?? (target.port == 22 ? target.host : "\(target.host):\(target.port)")
        return CommandReport(server: server, user: target.user ?? localUser, command: capture.command,
                             exitStatus: capture.status, signal: capture.signal, startedAt: capture.startedAt,
                             duration: end.timeIntervalSince(capture.startedAt))
    }

    /// True when the view shows the captured quick command's parsed table.
    static func showsTable(_ session: SessionState) -> Bool {
        session.showParsed && session.quick?.table != nil && session.capture?.quick != nil
    }

    /// What F7 saves and `|` pipes: what the view shows (the parsed table, or the output as received).
    static func currentBytes(_ session: SessionState) -> [UInt8] {
        if showsTable(session), let table = session.quick?.table { return Array(TableFormatter().render(table).utf8) }
        return session.capture?.keptBytes ?? []
    }

    /// `~/essh-SERVER-YYYYmmdd-HHMMSS.txt`, the server name reduced to characters safe in a file name.
    static func defaultSavePath(_ session: SessionState, now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = session.target.name ?? session.target.host
        let safe = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" })
        return "~/essh-\(safe)-\(formatter.string(from: now)).txt"
    }
}
