import Operations
import ArgumentParser
import Basics
import Dispatch
import Foundation
import LocalProcess
import Logging
import Mail
import SSH
import TextWidth

/// `essh exec DEST [--] COMMAND...`: runs one command on a server, like `ssh DEST COMMAND`.
struct ExecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command on a server (or on many at once) and pass its output through.",
        discussion: """
            DEST is a saved server's name (essh servers add) or [user@]host[:port] (IPv6: [::1]:2222). Remote stdout \
            and stderr go to local stdout and stderr, into a pipe or a file as raw bytes. On a terminal, text and \
            colours pass, but what could act on the terminal (title, clipboard, screen modes, queries it would \
            answer) is shown as ␛… instead of obeyed; --raw passes everything, as ssh does. Local stdin is forwarded \
            when it is not a terminal (-n: never).
            Exit status: the remote command's; 128+N when a signal N killed it; 124 when --timeout stopped it; \
            130 when interrupted; 255 when connecting or logging in failed; 2 when a key or password file cannot \
            be used; the rest as in essh --help. A command stopped by --timeout or \
            Ctrl-C is sent INT on the server, then TERM, then KILL, half a second apart, until it ends; then the \
            channel is closed (where the server ignores signals, as OpenSSH does for root, a command that writes \
            nothing goes on running). --mail mails what arrived also when the \
            command did not finish (--timeout, interrupted, connection lost; the status block says so). With --mail: \
            75 when the mail was not sent but kept in the outbox (essh mail --retry), 1 when it could not be kept either.
            Many servers at once: --all, --tag TAG (repeatable), -h/--hosts-file FILE, or DEST as NAME,NAME,..., a \
            pattern (web[01-20], db*), tag:TAG, with !NAME or --exclude SELECTOR to leave servers out (put the \
            command after --; see README's selectors). Each output line is \
            printed as it comes, prefixed "name: " (--group: identical outputs once, with their servers; --json: one \
            document at the end); a summary goes to stderr. --timeout is then each server's time, connecting included \
            (default: the fleet.timeout setting, else 60 s); stdin is not forwarded; unknown host keys are refused, \
            never asked. Exit status: 0 when every server ran the command and it exited 0, 1 otherwise, 130 when \
            interrupted (what finished is still printed).
            """,
        helpNames: SelectionOptions.helpNames
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var port: PortOption

    @Option(name: .customLong("timeout"), help: ArgumentHelp("Stop the command after this many seconds.",
                                                            valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .customShort("n"), help: "Do not forward stdin (the command sees end-of-file at once).")
    var noStdin = false

    @Flag(help: ArgumentHelp("On a terminal too, pass the output unchanged, as ssh does (the server may then set the "
                             + "title or the clipboard, switch screens, or make the terminal answer)."))
    var raw = false

    @Option(name: .customLong("mail"), help: ArgumentHelp(
        "Also mail the output, with a status block, to these addresses (separated by commas).",
        valueName: "address,..."))
    var mailTo: String?

    @Option(name: .long, help: "The mail's subject (default: “essh: COMMAND on DEST”).")
    var subject: String?

    @OptionGroup var fleet: FleetOptions

    @Argument(help: ArgumentHelp("The server: a saved name, or [user@]host[:port]; for several at once NAME,NAME,..., "
                                 + "a pattern (web[01-20], db*), tag:TAG, !NAME.", valueName: "dest"),
              completion: ServerCompletion.selectors)
    var dest: String?

    @Argument(parsing: .postTerminator, help: "The command to run (everything after DEST).")
    var command: [String] = []

    /// Options that take a value: `CommandLineArguments` uses this to find DEST.
    static var valueOptions: Set<String> {
        ConnectionOptions.valueOptions.union(PortOption.valueOptions).union(["--timeout", "--mail", "--subject"]).union(FleetOptions.valueOptions)
    }

    func validate() throws {
        try connection.validateOptions()
        if subject != nil && mailTo == nil { throw ValidationError("--subject goes with --mail ADDRESS.") }
        if let mailTo { try MailOptions.check { () throws(MailError) in _ = try MailAddress.parseList(mailTo) } }
        if let subject { try MailOptions.check { () throws(MailError) in try HeaderSafety.check(subject, field: "Subject") } }
        if isFleet {
            if raw { throw ValidationError("--raw is for one server: a fleet run shows each line sanitised.") }
            return try fleet.validate(dest: dest, command: command, timeout: timeout)
        }
        guard dest != nil else { throw ValidationError("Give the server (DEST) and the command, e.g. essh exec web1 uptime.") }
        if command.isEmpty { throw ValidationError("Give the command to run after DEST, e.g. essh exec web1 uptime.") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout \(timeout): give a number of seconds above 0.") }
    }

    /// Several servers (`--all`, `--tag`, a hosts file, a list, a pattern, a tag) or a fleet-only option (`--json`,
    /// `--group`, `--parallel`).
    var isFleet: Bool { fleet.isRequested || dest.map(SelectionOptions.namesMany) == true }

    func run() throws {
        let mail = try mailTo.map { try ExecMail(to: $0, subject: subject, database: connection.database) }
        if isFleet { return try FleetExec(exec: self, mail: mail).run() }
        guard let dest else { return }
        try connection.withSession(dest, port: port.choice) { session, target, cancel, log in
            target.recordConnection()
            try runCommand(session, target: target, cancel: cancel, mail: mail, log: log)
        }
    }

    /// Runs the command. Ctrl-C (SIGINT, SIGTERM, SIGHUP) and --timeout cancel it; `session.run` then stops it on
    /// the server (INT, TERM, KILL) before returning, so essh exits only after the signals went out.
    private func runCommand(_ session: SSHSession, target: ResolvedConnection, cancel: Cancellation,
                            mail: ExecMail?, log: Logger) throws {
        // A command line is what a shell would see: words joined by spaces, as ssh does.
        let line = command.joined(separator: " ")
        let input: CommandInput = noStdin || isatty(STDIN_FILENO) != 0 ? .none : .fileDescriptor(STDIN_FILENO)
        var brokenPipe = false
        var output = RemoteOutput(raw: raw)
        defer { output.finish() }  // also when the command did not finish (its end is shown before the error)
        let port = target.options.port == 22 ? "" : ":\(target.options.port)"
        let server = target.server?.name ?? target.options.host + port
        do {
            let exit = try session.run(line, input: input, timeout: timeout, cancel: cancel) { stream, bytes in
                mail?.keep(bytes)
                guard !brokenPipe else { return }
                if !output.write(stream, bytes) {
                    brokenPipe = true
                    cancel.cancel()
                }
            }
            output.finish()
            session.disconnect()
            target.recordCommand(line, exitStatus: exit.status.map(Int.init))
            if let signal = exit.signal {
                printError("the remote command was killed by signal \(signal).")
            }
            try mail?.send(server: server, user: target.options.user, command: line, status: exit.status,
                           signal: exit.signal.map { "\($0)" })
            throw ExitCode(exit.exitCode)
        } catch let error as SSHError {
            session.disconnect()
            log.debug("\(error.kind.rawValue): \(error.detail)")
            if error.kind == .cancelled && brokenPipe { throw CommandFailure(.brokenPipe) }
            let ending = ResolvedConnection.ending(error)
            guard let mail else { throw ending }
            // Said before the mail's own outcome; what arrived before the timeout, the interruption or the lost
            // connection is mailed too, and a mail that was not sent ends the command with its own status.
            if error.kind != .cancelled { printError(error) }
            try mail.send(server: server, user: target.options.user, command: line, status: nil, signal: nil,
                          unfinished: ExecMail.unfinished(error, timeout: timeout))
            throw CommandFailure(ExitStatus(for: error))
        }
    }
}


/// `essh: SENTENCE` on stderr, for a failure the command reports and goes on from (or ends on with a status of its
/// own choosing); an error that ends the command is thrown to `CommandEnding` instead.
func printError(_ error: any Error) { printError(UserFacing.sentence(error)) }

/// `essh: MESSAGE` on stderr.
func printError(_ message: String) { ErrorLine.print(message) }

/// The server's pre-login banner on stderr, as ssh prints it, with escape sequences and control characters made
/// visible (a server's text never reaches the terminal raw). Ends with a newline.
func printBanner(_ text: String) {
    var shown = TextSanitizer.sanitize(text.replacingOccurrences(of: "\r\n", with: "\n"), policy: .visible)
    if !shown.hasSuffix("\n") { shown += "\n" }
    TerminalOutput.writeError(shown)
}

/// Turns SIGINT, SIGTERM and SIGHUP into a cancel while a command or a fleet runs, so the work stops cleanly (the
/// session says goodbye, a fleet keeps what finished); `stop()` gives the signals back their default meaning.
final class SignalCancellation {
    private let sources: [DispatchSourceSignal]

    init(_ onSignal: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM, SIGHUP].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler(handler: onSignal)
            source.resume()
            return source
        }
    }

    /// Cancels `cancel` on a signal.
    convenience init(_ cancel: Cancellation) {
        self.init { cancel.cancel() }
    }

    func stop() {
        for s in sources { s.cancel() }
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
    }
}
