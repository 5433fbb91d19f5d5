import Basics
import Foundation
import NetParsers
import SSH
import TUIKit

/// The running command's results arriving in the session. `Update` hands each to the session in place
/// (`state.withSession { session, _ in session.receive(…) }`): the scrollback ring is never copied per message.
extension SessionState {
    /// A chunk of the running command's output: kept raw for mail, save and pipe (`capture`), and sanitised into
    /// the scrollback. Output of any other command is dropped.
    mutating func receive(id: Int, _ bytes: [UInt8]) {
        guard let running, running.id == id else { return }
        startCapture(running)
        capture?.append(bytes)
        let text = sanitizer.feed(bytes)
        scrollback.append(text)
        if !text.isEmpty { atLineStart = text.hasSuffix("\n") }
    }

    /// The running command ended with an exit status (or a signal): its result line, and the command (not a quick
    /// one) into the saved server's history. Nothing when `id` is not the running command.
    mutating func commandFinished(id: Int, status: Int32?, signal: String?, at: Date) -> [Effect] {
        guard let running, running.id == id else { return [] }
        startCapture(running)
        capture?.finishedAt = at
        capture?.status = status
        capture?.signal = signal
        let result = (signal.map { "killed by \($0)" } ?? "exit \(status.map(String.init) ?? "?")")
            + " · " + DurationText.text(at.timeIntervalSince(running.startedAt), .precise)
        finishCommand(result: result)
        guard let name = target.name, running.quick == nil else { return [] }
        return [.appendHistory(server: name, command: running.command, status: status.map(Int.init))]
    }

    /// The running command failed without a status (connection lost, cancelled); false when `id` is not it.
    mutating func commandFailed(id: Int, message: String, at: Date) -> Bool {
        guard let running, running.id == id else { return false }
        startCapture(running)
        capture?.finishedAt = at
        capture?.failure = message
        let took = DurationText.text(at.timeIntervalSince(running.startedAt), .precise)
        finishCommand(result: message + " · " + took)
        return true
    }

    /// A quick command (F2/F3/F4) ended: its table, or why there is none.
    mutating func quickFinished(id: Int, _ result: QuickResult, at: Date) {
        guard let running, running.id == id else { return }
        startCapture(running)
        capture?.finishedAt = at
        capture?.command = result.commandLine
        // The quick-command runner keeps the first command that answered; one that failed gives an error.
        capture?.status = result.error == nil ? 0 : nil
        capture?.failure = result.error
        let took = DurationText.text(at.timeIntervalSince(running.startedAt), .precise)
        let note = result.error.map { " · \($0)" } ?? ""
        finishCommand(result: "\(result.commandLine) · \(took)" + note)
        quick = result
        table = ListState()
    }

    /// The session's shell is known or changed: the header says which; a notice goes into the output as a line of
    /// its own (sanitised: it may quote what the server said).
    mutating func shellChanged(_ mode: ShellMode, notice: String?) {
        shellMode = mode
        guard let notice else { return }
        if !atLineStart { scrollback.append("\n") }
        scrollback.appendLine("[" + TextSanitizer.line(notice) + "]")
        atLineStart = true
    }

    /// The capture of `running`'s output, started by its first message.
    private mutating func startCapture(_ running: RunningCommand) {
        guard capture?.commandId != running.id else { return }
        capture = OutputCapture(commandId: running.id, command: running.command, startedAt: running.startedAt,
                                quick: running.quick)
    }

    /// Flushes the sanitiser and writes the `[result]` line.
    mutating func finishCommand(result: String) {
        let rest = sanitizer.finish()
        scrollback.append(rest)
        if !rest.isEmpty { atLineStart = rest.hasSuffix("\n") }
        if !atLineStart { scrollback.append("\n") }
        scrollback.appendLine("[\(result)]")
        atLineStart = true
        lastResult = result
        running = nil
        commandsRun += 1
    }

    /// Starts a command: a fresh sanitiser, the `$ command` line, following the output. Returns its id.
    mutating func startCommand(line: String, command: String, quick kind: DataKind?, now: Date) -> Int {
        let id = nextCommandId
        nextCommandId += 1
        sanitizer = TextSanitizer(policy: .dropStyling)
        scrollback.appendLine(line)
        atLineStart = true
        running = RunningCommand(id: id, command: command, startedAt: now, quick: kind)
        view.follow = true
        quick = nil
        return id
    }
}
