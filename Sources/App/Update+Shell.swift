import InteractiveShell

/// The interactive shell: opening it on the session (F8, or the servers screen's shell key after connecting) and
/// what happens when the terminal comes back.
extension Update {
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
        guard var session = state.session else { return [] }
        let how = outcome.sentence(host: session.title)
        var status: String?
        if case .exited(let exit) = outcome.end {
            status = exit.signal.map { "killed by signal \($0)" } ?? exit.status.map(String.init)
        }
        let ends = session.closeAfterShell || outcome.connectionLost
        let seconds = max(0, Int(outcome.duration.rounded()))
        state.summary = SummaryState(title: session.title, seconds: seconds, commands: 0,
                                     reason: outcome.connectionLost ? how : nil, unsaved: nil,
                                     shell: ShellSummary(how: how, exitStatus: status, sessionEnded: ends),
                                     returnTo: ends ? .servers : .session)
        state.screen = .summary
        // What the status line said before the shell (a pipe's result, a mail sent) is old news now.
        state.notice = nil
        if ends {
            state.session = nil
            return [.disconnect]
        }
        let result = status.map { "exit \($0)" } ?? how
        session.scrollback.appendLine("[shell · \(result) · \(duration(outcome.duration))]")
        session.atLineStart = true
        state.session = session
        return []
    }
}
