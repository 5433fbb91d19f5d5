import ArgumentParser
import Foundation
import Logging
import NetParsers
import RemoteCommands
import SSH

/// `essh net DEST interfaces|routes|sockets`: runs the server's own network command and prints it as a table,
/// JSON, or as it came.
struct NetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "net",
        abstract: "Show a server's interfaces, routes or sockets as a table or JSON.",
        discussion: """
            DEST is a saved server's name (essh servers add) or [user@]host[:port]. eSSH runs the command for the \
            server's system (a saved server's stored OS; else detected with uname -s, or ver on Windows, and stored \
            for a saved server), trying the next one when a command is missing:
              interfaces  Linux: ip -j addr, ip addr, ifconfig -a
                          FreeBSD, macOS: ifconfig -a   Windows: ipconfig /all
              routes      Linux: ip route, route -n, netstat -rn
                          FreeBSD, macOS: netstat -rn   Windows: route print
              sockets     Linux: ss -tunap, ss -tuna, netstat -tunap, netstat -tuna
                          FreeBSD, macOS: netstat -an   Windows: netstat -ano
            Exit status: 0 when the output was read; 1 when no command worked or its output could not be read \
            (--raw shows it); 124 when --timeout stopped it; 130 when interrupted; 255 when connecting or logging \
            in failed.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .customLong("timeout"), help: ArgumentHelp("Stop each remote command after this many seconds.",
                                                            valueName: "seconds"))
    var timeout: Double = 30

    @Flag(help: "Print JSON ({\"interfaces\":[…]}, {\"routes\":[…]} or {\"sockets\":[…]}) instead of a table.")
    var json = false

    @Flag(help: "Print the command's output as it came, unparsed (on a terminal, with escape sequences shown as ␛…).")
    var raw = false

    @Argument(help: "The server: a saved name, or [user@]host[:port].")
    var dest: String

    @Argument(help: "What to show: interfaces, routes or sockets.")
    var kind: ParseCommand.Kind

    func validate() throws {
        try connection.validateOptions()
        if json && raw { throw ValidationError("Give --json or --raw, not both.") }
        if !(timeout > 0) { throw ValidationError("--timeout \(timeout): give a number of seconds above 0.") }
    }

    func run() throws {
        try connection.withSession(dest) { session, target, cancel, log in
            try show(session, target: target, cancel: cancel, log: log)
        }
    }

    private func show(_ session: SSHSession, target: ResolvedConnection, cancel: Cancellation, log: Logger) throws {
        let runner = QuickCommandRunner(shell: session, timeout: timeout, cancel: cancel)
        let output: QuickCommandOutput
        do {
            let stored = target.server.flatMap { RemoteOS($0.os) }
            let os = try stored ?? runner.detectOS()
            // Stored before the command runs, so a server lacking every command still keeps its detected OS.
            target.recordConnection(os: stored == nil ? os.serverOS : nil)
            log.debug("system: \(os.rawValue)\(stored == nil ? " (detected)" : " (stored)")")
            output = try runner.run(kind.dataKind, os: os)
        } catch let error as RemoteCommandsError {
            if let ssh = error.ssh { throw ResolvedConnection.ending(ssh) }
            var message = error.message
            if error.kind == .noCommandWorked, let server = target.server, server.os != .auto {
                message += " The commands were chosen for the stored OS \(server.os.rawValue); if that is wrong, run "
                    + "essh servers edit \(server.name) --os auto to detect it again."
            }
            log.debug("\(error.detail)")
            throw CommandFailure(.failed, message)
        }
        for skipped in output.skipped { log.debug("passed over \(skipped.commandLine): \(skipped.reason)") }
        log.debug("ran \(output.command.commandLine)")

        if raw {
            TerminalOutput.writeRemoteError(bytes: output.stderr)
            TerminalOutput.writeRemote(bytes: output.stdout)
            return
        }
        let source = "\(output.command.commandLine) on \(dest)"
        switch output.parsed {
        case .success(let items):
            NetOutput.write(items, json: json, source: source)
        case .failure(let error):
            throw CommandFailure(.failed, "Could not read the output of \(source). \(error.message) "
                                 + "Run with --raw to see it as it came.")
        }
    }
}
