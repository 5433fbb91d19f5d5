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
        }
        return []
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
