import ArgumentParser
import Basics
import Foundation
import InteractiveShell
import SSH

/// `essh shell DEST` (or `essh DEST`): an interactive shell on the server in this terminal, like `ssh DEST`.
struct ShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Open an interactive shell on a server in this terminal (also: essh DEST).",
        discussion: """
            DEST is a saved server's name (essh servers add) or [user@]host[:port]. As with ssh, essh DEST opens a \
            shell and essh DEST COMMAND... runs the command (essh exec). The remote shell gets a terminal \
            of the local type ($TERM) and size, which follows when the window is resized. Escapes, typed right \
            after Enter: ~. leaves the shell, ~? lists the escapes, ~~ sends a ~.
            A server that does not answer 3 keepalives in a row (one every --keepalive seconds) counts as lost.
            Exit status: the remote shell's; 128+N when a signal N killed it; 130 when interrupted (SIGINT, SIGTERM, \
            SIGHUP); 255 when connecting or logging in failed, the connection was lost, or ~. ended it; 1 when \
            standard input is not a terminal (use essh exec DEST COMMAND in scripts); the rest as in essh --help.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var port: PortOption

    @Option(name: .customLong("keepalive"),
            help: ArgumentHelp("Seconds between keepalives while the shell is quiet (0: none).", valueName: "seconds"))
    var keepalive: Int = 15

    /// Set by `CommandLineArguments` when `essh WORD` was read as `essh shell WORD`, so an unknown WORD is also
    /// explained as "not a command".
    @Flag(name: .customLong("as-default-command"), help: .private)
    var asDefaultCommand = false

    /// Set by `CommandLineArguments` when `essh --keepalive N DEST COMMAND…` gave a shell-only option with a command.
    @Flag(name: .customLong("with-command"), help: .private)
    var withCommand = false

    @Argument(help: "The server: a saved name, or [user@]host[:port].", completion: ServerCompletion.names)
    var dest: String

    func validate() throws {
        if withCommand {
            throw ValidationError("--keepalive belongs to the interactive shell, but essh DEST COMMAND runs the "
                                  + "command as essh exec does: leave --keepalive out, or leave the command out "
                                  + "for a shell.")
        }
        try connection.validateOptions()
        if !(0...3600).contains(keepalive) {
            throw ValidationError("--keepalive \(keepalive): give seconds from 0 (off) to 3600.")
        }
    }

    func run() throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure(.failed, "essh shell needs a terminal on standard input; to run commands from a "
                                 + "script or a pipe use essh exec \(dest) COMMAND (e.g. essh exec \(dest) sh < script).")
        }
        let unknownWordHint = asDefaultCommand
            ? " “\(dest)” is not an essh command either (essh --help lists them)." : ""
        try connection.withSession(dest, port: port.choice, hint: unknownWordHint,
                                   adjust: { $0.keepaliveInterval = keepalive }) {
            session, target, cancel, _ in
            target.recordConnection()
            let outcome = InteractiveShell.run(on: session, options: InteractiveShell.Options(cancel: cancel))
            session.disconnect()
            var line = outcome.sentence(host: dest) + " Connected for \(DurationText.text(outcome.duration, .wholeUnits)).\n"
            // After `exit` the shell's own "logout" ended the line; otherwise the cursor may sit after a prompt.
            if case .exited = outcome.end {} else { line = "\n" + line }
            TerminalOutput.writeError(line)
            throw ExitCode(outcome.exitCode)
        }
    }
}
