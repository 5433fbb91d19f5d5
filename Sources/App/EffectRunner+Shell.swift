import InteractiveShell
import SSH

extension EffectRunner {
    /// The interactive shell on the open session, in the real terminal (curses is suspended by the runtime).
    /// It runs on the SSH queue — waited for from the UI thread, which is idle while the shell owns the
    /// terminal — so libssh2 sees one thread per session as always.
    func runShell() -> ShellOutcome {
        withSessionOnSSHQueue { session in
            guard let session, session.isConnected else {
                return ShellOutcome(end: .connectionLost("The session is not connected."), duration: 0)
            }
            return InteractiveShell.run(on: session)
        }
    }
}
