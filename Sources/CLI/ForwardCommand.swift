import ArgumentParser
import Basics
import Forwarding
import Foundation
import Inventory
import Operations
import SSH
import TextWidth

/// `essh forward DEST -L … -R … -D …`: port forwards through a server, as `ssh -N` with -L, -R and -D, until Ctrl-C.
struct ForwardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Forward ports through a server until Ctrl-C (as ssh -N -L/-R/-D).",
        discussion: """
            DEST is a saved server's name, a Host of ~/.ssh/config, or [user@]host[:port], as for essh exec. \
            -L, -R and -D take OpenSSH's forms and may be repeated. Without them, a saved server's tunnels start \
            (essh servers edit NAME --forward L:5432:localhost:5432), each over a session of its own, and each comes \
            back after its session drops (reconnecting in 1, 2, 4 … up to 60 s); one line per change of state. For \
            a DEST that is no saved server, without -L, -R and -D, the LocalForward, RemoteForward and \
            DynamicForward lines ~/.ssh/config gives its host start, as with ssh -N DEST (none after \
            ClearAllForwardings yes; a Unix-domain socket or a RemoteForward without a target is said and skipped). \
            A bind address left out, or localhost, is every loopback address (127.0.0.1 and ::1 here, when this \
            machine has IPv6, as ssh does; the server's localhost for -R); * is every address of both families; \
            naming another address lets other machines use the forward, and essh warns about it. -D is a SOCKS5 \
            proxy (and SOCKS4/4a) \
            without authentication: point a browser or curl --socks5-hostname at it.
            One line per forward says where it listens (with the port picked for 0) on stdout; a connection that \
            cannot be made (the server cannot reach the target, or may not) is one line on stderr, and the tunnel \
            stays up. Every forward is set up or none is: a port already in use, or a remote forward the server \
            refuses, stops essh forward before it serves anything.
            Exit status: 130 after Ctrl-C or SIGTERM (it says how many connections were open); 2 when a local port \
            cannot be bound; 1 when the server refuses a remote forward; 255 when connecting fails or the connection \
            is lost; the rest as in essh --help.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var port: PortOption

    @Option(name: .customShort("L"),
            help: ArgumentHelp("Local forward: connections to [bind:]port here go to host:hostport from the server; "
                               + "repeatable.", valueName: "[bind:]port:host:hostport"))
    var local: [String] = []

    @Option(name: .customShort("R"),
            help: ArgumentHelp("Remote forward: the server listens on [bind:]port (0: any) and its connections come "
                               + "to host:hostport from here; repeatable.", valueName: "[bind:]port:host:hostport"))
    var remote: [String] = []

    @Option(name: .customShort("D"),
            help: ArgumentHelp("Dynamic forward: a SOCKS5/4a proxy on [bind:]port here; repeatable.",
                               valueName: "[bind:]port"))
    var dynamic: [String] = []

    @Option(name: .customLong("open-timeout"),
            help: ArgumentHelp("Seconds the server has to connect each forwarded connection.", valueName: "seconds"))
    var openTimeout: Double = 10

    @Option(name: .customLong("keepalive"),
            help: ArgumentHelp("Seconds between keepalives; 3 unanswered lose the connection (0: none).",
                               valueName: "seconds"))
    var keepalive: Int = 15

    @Argument(help: "The server: a saved name, a Host of ~/.ssh/config, or [user@]host[:port].",
              completion: ServerCompletion.names)
    var dest: String

    /// Options that take a value (for `OpenSSHOptions`, which looks for ssh's options before DEST).
    static let valueOptions = ConnectionOptions.valueOptions.union(PortOption.valueOptions).union(["-L", "-R", "-D", "--open-timeout", "--keepalive"])

    func validate() throws {
        try connection.validateOptions()
        _ = try specs()
        if !(openTimeout > 0 && openTimeout <= 3600) {
            throw ValidationError("--open-timeout \(openTimeout): give seconds between 0 and 3600.")
        }
        if !(0...3600).contains(keepalive) {
            throw ValidationError("--keepalive \(keepalive): give seconds from 0 (off) to 3600.")
        }
    }

    /// The forwards in the order given, -L first, then -R, then -D.
    func specs(allowSaved: Bool = true) throws -> [ForwardSpec] {
        var specs: [ForwardSpec] = []
        do throws(ForwardError) {
            for text in local { specs.append(try ForwardSpecParser.parse(.local, text)) }
            for text in remote { specs.append(try ForwardSpecParser.parse(.remote, text)) }
            for text in dynamic { specs.append(try ForwardSpecParser.parse(.dynamic, text)) }
        } catch {
            throw ValidationError(error.message)
        }
        if specs.isEmpty && !allowSaved {
            throw ValidationError("Give at least one forward: -L [bind:]port:host:hostport, -R [bind:]port:host:hostport "
                                  + "or -D [bind:]port.")
        }
        return specs
    }

    func run() throws {
        var forwards = try specs()
        if forwards.isEmpty {
            let target = try connection.resolve(dest, port: port.choice)
            if let server = target.server { return try runSaved(server, target) }
            forwards = try Self.sshConfigForwards(of: dest, target.sshConfig)
        }
        try connection.withSession(dest, port: port.choice,
                                   adjust: { $0.keepaliveInterval = keepalive }) { session, target, cancel, _ in
            target.recordConnection()
            let forwarder = try Forwarder(session: session, forwards: forwards, name: dest, openTimeout: openTimeout) {
                event in
                // A SOCKS client names its target: what it sent is shown, never obeyed.
                let line = TextSanitizer.sanitize(event.line, policy: .visible) + "\n"
                if case .listening = event {
                    TerminalOutput.write(line)
                } else {
                    TerminalOutput.writeError(line)
                }
            }
            defer { forwarder.stop() }
            try forwarder.start()
            switch forwarder.run(until: cancel) {
            case .stopped(let open):
                TerminalOutput.writeError("Stopped; \(CountText.text(open, "connection")) "
                                          + "\(open == 1 ? "was" : "were") open.\n")
                throw CommandFailure(.interrupted)
            case .lost(let error):
                throw CommandFailure(.connection, "The connection to \(dest) was lost: \(error.situation) Every "
                                     + "forwarded connection was closed.", detail: error.detail)
            }
        }
    }

    /// `essh forward HOST` alone, HOST no saved server: the forward lines ssh_config gives it, as `ssh -N HOST` sets
    /// them up (`SSHConfigForwards`, the rule the import follows); each line eSSH cannot set up is a warning.
    static func sshConfigForwards(of dest: String, _ lookup: SSHConfigLookup?) throws -> [ForwardSpec] {
        let home = ConnectionProfile.Context().home
        let reading = SSHConfigForwards.read(lookup?.forwards ?? [])
        for refused in reading.refused {
            TerminalOutput.writeError(TextSanitizer.sanitize(
                "essh: warning: \(refused.line.location.text(home: home)): \(refused.line.text): \(refused.reason); "
                    + "skipped\n", policy: .visible))
        }
        var specs: [ForwardSpec] = []
        do throws(ForwardError) {
            specs = try reading.saved.map { text throws(ForwardError) in try ForwardSpecParser.parseSaved(text) }
        } catch {
            throw CommandFailure(.badInput, error.message)
        }
        if specs.isEmpty {
            let why = lookup?.forwardsClearedBy.map { "ClearAllForwardings yes (\($0.text(home: home))) clears the "
                + "forwards ~/.ssh/config gives it" }
                ?? (reading.refused.isEmpty ? "~/.ssh/config gives it no LocalForward, RemoteForward or DynamicForward"
                    : "eSSH can set up none of the forwards ~/.ssh/config gives it")
            throw CommandFailure(.usage, "Give at least one forward: -L [bind:]port:host:hostport, -R "
                                 + "[bind:]port:host:hostport or -D [bind:]port (\(dest) is no saved server, and "
                                 + "\(why)).")
        }
        return specs
    }

    /// `essh forward NAME` alone: the saved server's tunnels, kept up by a `TunnelSupervisor` until Ctrl-C.
    func runSaved(_ server: Server, _ target: ResolvedConnection) throws {
        if server.forwards.isEmpty {
            throw CommandFailure(.badInput, "\(server.name) has no saved tunnels: save one with essh servers edit "
                                 + "\(server.name) --forward L:5432:localhost:5432, or give -L, -R or -D.")
        }
        var options = target.options
        options.setKeepalive(keepalive)
        let fixed = options
        let opener = LiveTunnelOpener(options: { _ in fixed }, keepalive: keepalive, openTimeout: openTimeout)
        let supervisor = TunnelSupervisor(opener: opener.opener, onChange: Self.report)
        let cancel = try Cancellation()
        let signals = SignalCancellation { cancel.cancel() }
        defer { signals.stop() }
        let ids = SavedTunnels.tunnels(of: server).map(\.id)
        for id in ids { supervisor.start(id) }
        target.recordConnection()
        // Until Ctrl-C, or until every tunnel has failed for good.
        while !cancel.isCancelled {
            var p = pollfd(fd: cancel.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 250)
            if !cancel.isCancelled && supervisor.runningCount == 0 {
                throw CommandFailure(.failed, "No saved tunnel of \(server.name) could start (see above).")
            }
        }
        let open = supervisor.snapshot().reduce(0) { $0 + $1.openConnections }
        let running = supervisor.stopAll()
        TerminalOutput.writeError("Stopped \(CountText.text(running, "tunnel")); "
                                  + "\(CountText.text(open, "connection")) \(open == 1 ? "was" : "were") open.\n")
        throw CommandFailure(.interrupted)
    }

    /// One line per change of a saved tunnel's state: up on stdout, the rest on stderr.
    @Sendable static func report(_ status: TunnelStatus) {
        let name = "\(status.id.server) \(status.id.forward)"
        let line: String
        switch status.state {
        case .up:
            line = "\(name): up" + (status.listening.map { ", listening on \($0)" } ?? "")
        case .reconnecting(_, _, let reason):
            line = "\(name): \(status.state.text): \(reason)"
        case .starting(let attempt) where attempt == 0:
            return
        case .stopped:
            // Said once for all: "Stopped 2 tunnels; …".
            return
        default:
            line = "\(name): \(status.state.text)"
        }
        let safe = TextSanitizer.sanitize(line, policy: .visible) + "\n"
        if status.state == .up { TerminalOutput.write(safe) } else { TerminalOutput.writeError(safe) }
    }
}

extension CommandLineArguments {
    /// `essh [options] -N [-L SPEC…] DEST` (ssh -N's form: forwards and no command) is `essh forward [options] -L
    /// SPEC… DEST`; without -L, -R or -D, DEST's saved tunnels or its ~/.ssh/config forwards, as ssh -N DEST starts
    /// them. Only with -N before DEST: a forward without -N keeps its usage sentence.
    static func forwardForm(_ args: [String]) -> [String]? {
        let letters: Set<String> = ["-L", "-R", "-D"]
        var noCommand = false
        let words = beforeDestination(args) { word, next in
            if word == "-N" {
                noCommand = true
                return (1, [])
            }
            if letters.contains(word), let next { return (2, [word, next]) }
            if let letter = letters.first(where: { word.hasPrefix($0) && word.count > 2 }) {
                return (1, [letter, String(word.dropFirst(2))])
            }
            return nil
        }
        guard let words, noCommand else { return nil }
        return ["forward"] + words
    }
}
