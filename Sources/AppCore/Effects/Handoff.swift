/// Work that needs the real terminal: the runtime leaves the full-screen mode, runs it on the UI thread
/// (`EffectHandler.handOver`), takes the terminal back and redraws everything, then posts the outcome as
/// `Message.handedBack`. The pattern of Bubble Tea's `ExecProcess`.
package enum Handoff: Sendable, Equatable {
    /// Runs `sh -c command` with `input` on its stdin and the terminal as its stdout and stderr (`|` in a
    /// session: `less`, `wc -l`, a script of the user's).
    case pipe(command: String, input: [UInt8])
    /// An interactive shell on the open session (`InteractiveShell`: raw mode, PTY, `~.`); `title` names the
    /// server in messages.
    case shell(title: String)
    /// `command` on a PTY on the open session (`TerminalCommand`: `sudo`, `top`, `vi`, `!COMMAND`), in the person's
    /// terminal; `line` is what was typed, for the history; `title` names the server.
    case terminal(line: String, command: String, title: String)
}
