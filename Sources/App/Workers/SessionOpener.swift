import InteractiveShell
import RemoteCommands
import SSH

/// An open SSH session as the session worker uses it. `SSHSession` is the real one; tests give a fake.
protocol OpenSession: RemoteShell, AnyObject, Sendable {
    var isConnected: Bool { get }
    /// How the login worked (`publickey (/home/me/.ssh/id_ed25519)`, `agent …`, `password`).
    var loginMethod: LoginMethod { get }
    /// `(address), banner, host key SHA256:…`, for the log.
    var logDescription: String { get }
    /// Runs `command` on a new channel, streaming its output, until it ends or `cancel` stops it (then stopped on
    /// the server as `stop` says). `SSHSession.run` itself: the worker calls SSH with nothing in between.
    func run(_ command: String, input: CommandInput, timeout: Double?, cancel: Cancellation?, stop: StopEscalation,
             output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void) throws(SSHError) -> CommandExit
    func keepalive() throws(SSHError)
    func disconnect()
    /// The interactive shell in the real terminal (curses suspended), until it ends.
    func interactiveShell() -> ShellOutcome
    /// `command` on a PTY in the real terminal (curses suspended), until it ends; it starts in the folder the
    /// session's commands are in, when the session knows it.
    func runOnTerminal(_ command: String) -> ShellOutcome
}

/// Opens sessions (resolve, connect, handshake, host key, login), asking `prompter` what it must.
protocol SessionOpener: Sendable {
    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession
}

/// The real opener: `SSHSession.connect`.
struct SSHSessionOpener: SessionOpener {
    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession {
        try SSHSession.connect(options, prompter: prompter, cancel: cancel, onStage: onStage)
    }
}

extension SSHSession: OpenSession {
    var logDescription: String { "(\(address)), \(serverBanner), host key \(hostKey.fingerprint)" }

    func interactiveShell() -> ShellOutcome { InteractiveShell.run(on: self) }

    /// Each command runs in a fresh shell here (the login folder), so there is no folder to start in.
    func runOnTerminal(_ command: String) -> ShellOutcome {
        InteractiveShell.run(on: self, options: InteractiveShell.Options(command: command))
    }
}
