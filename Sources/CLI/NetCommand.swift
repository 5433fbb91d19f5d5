import ArgumentParser
import Basics
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
            Many servers at once: --all, --tag TAG, -h/--hosts-file FILE (then only KIND follows, e.g. essh net \
            --tag web routes), or DEST as NAME,NAME,..., a pattern (web[01-20], db*), tag:TAG, with !NAME or \
            --exclude SELECTOR to leave servers out. They run as essh exec runs a fleet (--parallel, else the \
            fleet.parallel setting; --timeout is each server's time, connecting included, else the fleet.timeout \
            setting; unknown host keys are refused). One table with a SERVER column, or --json {"results":[{name, \
            status, command, os, duration_ms, error, interfaces|routes|sockets}]}; servers that failed are named on \
            stderr with why, and a summary follows. \
            Exit status: 0 when every server's output was read, 1 otherwise, 130 when interrupted.
            """,
        helpNames: SelectionOptions.helpNames
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var port: PortOption

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Stop each remote command after this many seconds (default 30; with several servers: each server's time).",
        valueName: "seconds"))
    var timeout: Double?

    @OptionGroup var selection: SelectionOptions

    @Option(name: .long, help: ArgumentHelp(
        "With several servers: how many at once (default: the fleet.parallel setting, else 64).", valueName: "n"))
    var parallel: Int?

    @Flag(help: "Print JSON ({\"interfaces\":[…]}, {\"routes\":[…]} or {\"sockets\":[…]}) instead of a table.")
    var json = false

    @Flag(help: "Print the command's output as it came, unparsed (on a terminal, with escape sequences shown as ␛…).")
    var raw = false

    @Argument(help: ArgumentHelp("The server: a saved name, or [user@]host[:port]; for several NAME,NAME,..., a "
                                 + "pattern (web[01-20], db*), tag:TAG, !NAME (none with --all, --tag or -h).",
                                 valueName: "dest"),
              completion: ServerCompletion.selectors)
    var dest: String?

    @Argument(help: "What to show: interfaces, routes or sockets.")
    var kind: ParseCommand.Kind?

    /// Several servers: --all, --tag, a hosts file, or a DEST naming several (a list, a pattern, a tag).
    var isFleet: Bool { selection.isGiven || dest.map(SelectionOptions.namesMany) == true }

    mutating func validate() throws {
        try connection.validateOptions()
        // With --all, --tag or a hosts file the one word given is KIND, which the parser put in DEST's place.
        if selection.picksServers, kind == nil, let word = dest, let given = ParseCommand.Kind(rawValue: word) {
            kind = given
            dest = nil
        }
        if selection.picksServers && dest != nil {
            throw ValidationError("--all, --tag and --hosts-file pick the servers themselves: give only what to show, "
                                  + "e.g. essh net --tag web routes.")
        }
        if isFleet {
            try FleetSelection.validate(selection, words: dest.map { [$0] } ?? [], parallel: parallel)
        } else if dest == nil {
            throw ValidationError("Say which server: DEST, NAME,NAME,..., --all or --tag TAG (e.g. essh net web1 routes).")
        }
        if kind == nil { throw ValidationError("Say what to show: interfaces, routes or sockets.") }
        if json && raw { throw ValidationError("Give --json or --raw, not both.") }
        if isFleet && raw { throw ValidationError("--raw is for one server: with several, the output is parsed.") }
        if !isFleet && parallel != nil { throw ValidationError("--parallel is for several servers.") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout \(timeout): give a number of seconds above 0.") }
    }

    func run() throws {
        guard let kind else { return }
        if isFleet { return try NetFleet(net: self, kind: kind).run() }
        guard let dest else { return }
        try connection.withSession(dest, port: port.choice) { session, target, cancel, log in
            try show(session, target: target, dest: dest, kind: kind, cancel: cancel, log: log)
        }
    }

    private func show(_ session: SSHSession, target: ResolvedConnection, dest: String, kind: ParseCommand.Kind,
                      cancel: Cancellation, log: Logger) throws {
        let runner = QuickCommandRunner(shell: session, timeout: timeout ?? 30, cancel: cancel)
        let output: QuickCommandOutput
        do throws(RemoteCommandsError) {
            let stored = target.server?.os ?? .auto
            let os = try stored == .auto ? runner.detectOS() : stored
            // Stored before the command runs, so a server lacking every command still keeps its detected OS.
            target.recordConnection(os: stored == .auto ? os : nil)
            log.debug("system: \(os.rawValue)\(stored == .auto ? " (detected)" : " (stored)")")
            output = try runner.run(kind.dataKind, os: os)
        } catch {
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
