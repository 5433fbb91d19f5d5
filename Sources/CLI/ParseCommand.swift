import ArgumentParser
import Foundation
import NetParsers

/// `essh parse interfaces|routes|sockets`: reads saved network command output and prints a table or JSON.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Read ifconfig / ip / ipconfig / route / netstat / ss output and print it as a table or JSON.",
        discussion: """
            Reads FILE, or standard input when no FILE is given. The layout is detected unless --format names it.
            Lines that cannot be read are reported on standard error; nothing is guessed.
            Examples:
              ip addr | essh parse interfaces
              essh parse routes --json route.txt
              ssh host netstat -an | essh parse sockets --format netstat
            """)

    @Argument(help: "What the input lists: interfaces, routes or sockets.")
    var kind: Kind

    @Option(help: "The command that produced the input: auto, ifconfig, ip, ipconfig, route, netstat or ss.")
    var format: Format = .auto

    @Flag(help: "Print JSON ({\"interfaces\":[…]}, {\"routes\":[…]} or {\"sockets\":[…]}) instead of a table.")
    var json = false

    @Argument(help: "A file holding the command's output (default: standard input).")
    var file: String?

    /// What a command lists (`essh parse` and `essh net` take the same words).
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case interfaces, routes, sockets

        var dataKind: DataKind {
            switch self {
            case .interfaces: return .interfaces
            case .routes: return .routes
            case .sockets: return .sockets
            }
        }
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case auto, ifconfig, ip, ipconfig, route, netstat, ss
    }

    func run() throws {
        let input = try InputFile.read(file)
        let family = FormatFamily(rawValue: format.rawValue) ?? .auto
        let items: ParsedItems
        do {
            items = try NetParser.parse(input, kind: kind.dataKind, format: family)
        } catch let error as NetParseError {
            throw CommandFailure(.failed, "\(source): \(error.message)")
        }
        NetOutput.write(items, json: json, source: source)
    }

    private var source: String { file ?? "standard input" }
}
