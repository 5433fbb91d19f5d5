import TUIKit
import Basics
import InteractiveShell

/// Work handed the terminal (the interactive shell, a pipe into a local command): opening the shell on the session
/// (F8, or the servers screen's shell key after connecting) and what happens when the terminal comes back.
extension Update {
    /// The terminal is back after a handoff: say how the handed-over work ended.
    static func handedBack(_ state: inout AppState, _ outcome: HandoffOutcome) -> [Effect] {
        switch outcome {
        case .piped(let command, let result):
            state.notice = "Piped the output into `\(command)`: \(result.summary)."
        case .shell(let outcome):
            return shellEnded(&state, outcome)
        case .terminal(let line, let outcome):
            return terminalEnded(&state, line: line, outcome)
        }
        return []
    }

    /// A command run on a terminal ended: its result line as any command's (`on a terminal` says where its output
    /// went), the command into the history; a lost connection is the session's.
    static func terminalEnded(_ state: inout AppState, line: String, _ outcome: ShellOutcome) -> [Effect] {
        state.notice = nil
        let name = state.withSession { session, _ -> String? in
            let took = DurationText.text(outcome.duration, .precise)
            let result: String
            switch outcome.end {
            case .exited(let exit):
                result = exit.signal.map { "killed by \($0)" } ?? "exit \(exit.status.map(String.init) ?? "?")"
            case .escape: result = "left with ~."
            case .interrupted: result = "interrupted"
            case .terminalClosed: result = "the terminal closed"
            case .connectionLost(let reason), .failedToStart(let reason): result = TextSanitizer.line(reason)
            }
            session.finishTerminalCommand(result: result + " · " + took + " · on a terminal")
            return session.target.name
        }
        if outcome.connectionLost, case .connectionLost(let reason) = outcome.end {
            return sessionLost(&state, reason: reason)
        }
        guard let name = name ?? nil, case .exited(let exit) = outcome.end else { return [] }
        return [.appendHistory(server: name, command: line, status: exit.status.map(Int.init))]
    }

    /// Hands the terminal to a shell on `session`; `closeAfter` when the session was opened only for it.
    static func openShell(_ session: inout SessionState, closeAfter: Bool) -> [Effect] {
        session.closeAfterShell = closeAfter
        session.scrollback.appendLine("$ [shell]")
        session.atLineStart = true
        session.view.follow = true
        return [.handOver(.shell(title: session.title))]
    }

    /// The shell ended: the summary (connection time, how it ended, exit status), then back where the person
    /// was — the session it was opened from, unless that session is gone with it, else the servers.
    static func shellEnded(_ state: inout AppState, _ outcome: ShellOutcome) -> [Effect] {
        // The title and flag only: a copy of the session held here would make the line added below copy the
        // scrollback.
        guard state.screen.kind == .session, let title = state.session?.title,
              let closeAfterShell = state.session?.closeAfterShell else { return [] }
        let how = outcome.sentence(host: title)
        var status: String?
        if case .exited(let exit) = outcome.end {
            status = exit.signal.map { "killed by signal \($0)" } ?? exit.status.map(String.init)
        }
        let ends = closeAfterShell || outcome.connectionLost
        let seconds = max(0, Int(outcome.duration.rounded()))
        var summary = SummaryState(title: title, seconds: seconds, commands: 0,
                                   reason: outcome.connectionLost ? how : nil, unsaved: nil,
                                   shell: ShellSummary(how: how, exitStatus: status, sessionEnded: ends))
        // What the status line said before the shell (a pipe's result, a mail sent) is old news now.
        state.notice = nil
        if !ends {
            let result = status.map { "exit \($0)" } ?? how
            state.withSession { session, _ in
                let took = DurationText.text(outcome.duration, .precise)
                session.scrollback.appendLine("[shell · \(result) · \(took)]")
                session.atLineStart = true
            }
            // The session stays open under the summary, which leads back to it.
            summary.session = state.session
        }
        state.show(.summary(summary))
        return ends ? [.disconnect] : []
    }
}
