import InteractiveShell
import RemoteCommands
import SSH

/// An open SSH session as the session worker uses it. `SessionShell` (an `SSHSession` and its persistent shell) is
/// the real one; tests give a fake.
protocol OpenSession: RemoteShell, AnyObject, Sendable {
    var isConnected: Bool { get }
    /// Who logged in: the key file or agent key (with its fingerprint), a password, keyboard-interactive.
    var loginIdentity: LoginIdentity { get }
    /// `(address), banner, host key SHA256:…`, for the log.
    var logDescription: String { get }
    /// Opens the persistent shell the session screen's commands run in, or settles on one channel per command;
    /// throws only when the connection failed or `cancel` fired. `SessionShell.start` itself.
    func start(cancel: Cancellation?) throws(SSHError) -> ShellMode
    /// Runs a command typed on the session screen — in the persistent shell when there is one, else on a new
    /// channel — streaming its output, until it ends or `cancel` stops it (then stopped on the server as `stop`
    /// says). `notice` hears when the shell was replaced (its state lost) or the mode changed. `SessionShell.run`
    /// itself: the worker calls SSH with nothing in between.
    func run(_ command: String, timeout: Double?, cancel: Cancellation?, stop: StopEscalation,
             output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void,
             notice: (ShellNotice) -> Void) throws(SSHError) -> CommandExit
    func keepalive() throws(SSHError)
    func disconnect()
    /// The interactive shell in the real terminal (curses suspended), until it ends.
    func interactiveShell() -> ShellOutcome
    /// `command` on a PTY in the real terminal (curses suspended), until it ends; it starts in the folder the
    /// session's commands are in, when the session knows it.
    func runOnTerminal(_ command: String) -> ShellOutcome
    /// The shell's working folder after the last command (nil without a shell that lasts); `SessionShell.directory`.
    var directory: String? { get }
}

extension OpenSession {
    /// Sessions without a shell that lasts (test fakes) know no folder.
    var directory: String? { nil }
    /// How the login worked (`publickey (/home/me/.ssh/id_ed25519)`, `agent …`, `password`).
    var loginMethod: LoginMethod { loginIdentity.method }
}

/// Opens sessions (resolve, connect, handshake, host key, login), asking `prompter` what it must.
protocol SessionOpener: Sendable {
    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession
    /// `open`, also saying each stage with the hop it belongs to when `options` has jump hosts.
    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void, onHopStage: (HopStage) -> Void) throws(SSHError) -> any OpenSession
}

extension SessionOpener {
    /// Openers that know nothing of hops (test fakes) say only the stages.
    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void, onHopStage: (HopStage) -> Void) throws(SSHError) -> any OpenSession {
        try open(options, prompter: prompter, cancel: cancel, onStage: onStage)
    }
}

/// The real opener: `SSHSession.connect`, its commands in a `SessionShell`.
struct SSHSessionOpener: SessionOpener {
    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void) throws(SSHError) -> any OpenSession {
        try open(options, prompter: prompter, cancel: cancel, onStage: onStage, onHopStage: { _ in })
    }

    func open(_ options: ConnectOptions, prompter: any Prompter, cancel: Cancellation,
              onStage: (ConnectStage) -> Void, onHopStage: (HopStage) -> Void) throws(SSHError) -> any OpenSession {
        SessionShell(session: try SSHSession.connect(options, prompter: prompter, cancel: cancel, onStage: onStage,
                                                     onHopStage: onHopStage))
    }
}

/// The session's commands in its persistent shell; quick commands and the interactive shell on channels of their own.
extension SessionShell: OpenSession {
    var isConnected: Bool { session.isConnected }
    var loginIdentity: LoginIdentity { session.loginIdentity }

    var logDescription: String {
        "(\(session.address)), \(session.serverBanner), host key \(session.hostKey.fingerprint)"
    }

    public func capture(_ command: String, input: CommandInput, timeout: Double?, cancel: Cancellation?)
        throws(SSHError) -> (stdout: [UInt8], stderr: [UInt8], exit: CommandExit) {
        try session.capture(command, input: input, timeout: timeout, cancel: cancel)
    }

    func keepalive() throws(SSHError) { try session.keepalive() }

    func disconnect() {
        close()
        session.disconnect()
    }

    func interactiveShell() -> ShellOutcome { InteractiveShell.run(on: session) }

    /// Starts in the persistent shell's working folder after the last command (the login folder without one).
    func runOnTerminal(_ command: String) -> ShellOutcome {
        InteractiveShell.run(on: session, options: InteractiveShell.Options(command: command, directory: directory))
    }
}
