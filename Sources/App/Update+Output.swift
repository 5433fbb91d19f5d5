import Foundation
import Mail
import NetParsers
import TUIKit

/// The last command's output leaving the session: mailed (F6), saved to a file (F7), piped into a local command
/// (`|` on an empty command line), and the outbox sent again (F9).
extension Update {
    /// Keeps the running command's raw output and how it ended, before the session handles the message. Output is
    /// appended in place (`state.session?.capture?`), so a long stream is never copied chunk by chunk.
    static func captureOutput(_ state: inout AppState, _ message: Message) {
        guard let running = state.session?.running else { return }
        let id: Int
        switch message {
        case .output(let i, _), .commandFinished(let i, _, _, _), .commandFailed(let i, _, _, _),
             .quickFinished(let i, _, _):
            id = i
        default:
            return
        }
        guard running.id == id else { return }
        if state.session?.capture?.commandId != id {
            state.session?.capture = OutputCapture(commandId: id, command: running.command,
                                                   startedAt: running.startedAt, quick: running.quick)
        }
        switch message {
        case .output(_, let bytes):
            state.session?.capture?.append(bytes)
        case .commandFinished(_, let status, let signal, let at):
            state.session?.capture?.finishedAt = at
            state.session?.capture?.status = status
            state.session?.capture?.signal = signal
        case .commandFailed(_, let text, _, let at):
            state.session?.capture?.finishedAt = at
            state.session?.capture?.failure = text
        case .quickFinished(_, let result, let at):
            state.session?.capture?.finishedAt = at
            state.session?.capture?.command = result.commandLine
            // The quick-command runner keeps the first command that answered; one that failed gives an error.
            state.session?.capture?.status = result.error == nil ? 0 : nil
            state.session?.capture?.failure = result.error
        default:
            break
        }
    }

    /// Keys for the output tools; nil when the key is the session's.
    static func outputKey(_ state: inout AppState, _ key: Key) -> [Effect]? {
        guard var session = state.session else { return nil }
        if var tool = session.tool {
            let effects = toolKey(&state, &session, &tool, key)
            state.session = session
            return effects
        }
        let action = SessionAction.table.action(for: key)
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
            session.tool = .mail(to: state.settings.mailRecipient, subject: report.defaultSubject,
                                 tableAvailable: showsTable(session))
        case .save:
            session.tool = .save(path: defaultSavePath(session, now: state.now))
        default:
            session.tool = .pipe(command: "")
        }
        state.notice = nil
        state.session = session
        return []
    }

    private static func toolKey(_ state: inout AppState, _ session: inout SessionState, _ tool: inout OutputToolState,
                                _ key: Key) -> [Effect] {
        switch key {
        case .escape:
            session.tool = nil
            return []
        case .function(5) where tool.tableAvailable:
            tool.sendTable.toggle()
        case .enter:
            // nil: something is wrong (the form says what) and stays open.
            let effects = submit(&state, session, &tool)
            session.tool = effects == nil ? tool : nil
            return effects ?? []
        default:
            _ = editForm(&tool, key)
        }
        session.tool = tool
        return []
    }

    private static func submit(_ state: inout AppState, _ session: SessionState, _ tool: inout OutputToolState)
        -> [Effect]?
    {
        guard let capture = session.capture else { return [] }
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

    /// Results of the output effects.
    static func outputResult(_ state: inout AppState, _ message: Message) -> [Effect] {
        switch message {
        case .mailFinished(let result, let to):
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
        case .mailRetried(let results, let error):
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
        case .outputSaved(let path, let error):
            if let error {
                // The form comes back with the name, so a taken name can be changed at once.
                state.session?.tool = .save(path: path)
                state.session?.tool?.error = error
            } else {
                state.notice = "Saved the output to \(path) (readable by you only)."
            }
        default:
            break
        }
        return []
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
