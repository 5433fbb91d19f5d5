import ArgumentParser
import Basics
import Forwarding
import Foundation
import SSH

/// `essh proxy DEST --to HOST:PORT` (and `essh -W HOST:PORT DEST`): stdin and stdout joined to a connection that
/// DEST opens to HOST:PORT, so other tools use eSSH as their transport (ssh's ProxyCommand, rsync -e, git).
struct ProxyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Join stdin and stdout to HOST:PORT as seen from a server (as ssh -W).",
        discussion: """
            DEST connects to HOST:PORT (a direct-tcpip channel) and what comes on stdin goes there; what comes back \
            goes to stdout, and nothing else does: messages go to stderr. The end of stdin is passed on; essh proxy \
            ends when the connection closes. As a ProxyCommand:
              ssh -o ProxyCommand='essh proxy --to %h:%p bastion' target
            Unknown host keys are refused unless --host-key-policy accept-new (stdin is not a terminal to ask on).
            Exit status: 0 when the connection closed; 255 when connecting fails or DEST cannot reach HOST:PORT; \
            130 when interrupted; the rest as in essh --help.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var port: PortOption

    @Option(name: .customLong("to"), help: ArgumentHelp("Where DEST connects to.", valueName: "host:port"))
    var to: String

    @Argument(help: "The server that opens the connection: a saved name, a Host of ~/.ssh/config, or [user@]host[:port].",
              completion: ServerCompletion.names)
    var dest: String

    func validate() throws {
        try connection.validateOptions()
        do throws(ForwardError) {
            _ = try ForwardSpecParser.target(to)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let (host, targetPort) = try ForwardSpecParser.target(to)
        try connection.withSession(dest, port: port.choice) { session, target, cancel, _ in
            target.recordConnection()
            let relay = try ChannelRelay(session: session, name: dest)
            defer { relay.stop() }
            let ending = try StdioProxy.run(relay: relay, host: host, port: targetPort, input: STDIN_FILENO,
                                            output: STDOUT_FILENO, timeout: connection.connectTimeout, cancel: cancel)
            if ending == .cancelled { throw CommandFailure(.interrupted) }
            if let lost = relay.failure { throw lost }
        }
    }
}

extension CommandLineArguments {
    /// `essh [options] -W host:port DEST` is `essh proxy [options] --to host:port DEST` (ssh -W's form).
    static func proxyForm(_ args: [String]) -> [String]? {
        var value: String?
        let words = beforeDestination(args) { word, next in
            if word == "-W", let next {
                value = next
                return (2, [])
            }
            if word.hasPrefix("-W") && word.count > 2 {
                value = String(word.dropFirst(2))
                return (1, [])
            }
            return nil
        }
        guard let words, let value else { return nil }
        return ["proxy", "--to", value] + words
    }

    /// An ssh-style command line without a subcommand (`essh [options] DEST …`), its words before DEST offered to
    /// `rewrite`, which may take a word (with the next) and say what stands in their place; connection options keep
    /// their values; DEST and what follows it are kept as they are. Nil when a subcommand or `--` comes first. The one
    /// walk behind ssh's `-W` (`proxyForm`) and `-N` (`forwardForm`) forms.
    static func beforeDestination(_ args: [String],
                                  rewrite: (String, String?) -> (consumed: Int, keep: [String])?) -> [String]? {
        let commands = Set(Subcommands.all.compactMap { $0.configuration.commandName } + ["help"])
        var i = 0
        var out: [String] = []
        while i < args.count {
            let word = args[i]
            if word == "--" || commands.contains(word) { return nil }
            if let taken = rewrite(word, i + 1 < args.count ? args[i + 1] : nil) {
                out += taken.keep
                i += taken.consumed
                continue
            }
            if ShellCommand.valueOptions.contains(word), i + 1 < args.count {
                out += [word, args[i + 1]]
                i += 2
                continue
            }
            out.append(word)
            i += 1
            if !word.hasPrefix("-") { break }
        }
        return out + args[min(i, args.count)...]
    }
}
