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

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case interfaces, routes, sockets
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case auto, ifconfig, ip, ipconfig, route, netstat, ss
    }

    func run() throws {
        let input = try readInput()
        let family = FormatFamily(rawValue: format.rawValue) ?? .auto
        let output: [UInt8]
        let warnings: [String]
        do {
            switch kind {
            case .interfaces:
                let result = try NetParser.interfaces(input, format: family)
                warnings = result.warnings
                output = json ? NetJSON.encode(interfaces: result.items)
                    : Array(TableFormatter().render(.interfaces(result.items)).utf8)
            case .routes:
                let result = try NetParser.routes(input, format: family)
                warnings = result.warnings
                output = json ? NetJSON.encode(routes: result.items)
                    : Array(TableFormatter().render(.routes(result.items)).utf8)
            case .sockets:
                let result = try NetParser.sockets(input, format: family)
                warnings = result.warnings
                output = json ? NetJSON.encode(sockets: result.items)
                    : Array(TableFormatter().render(.sockets(result.items)).utf8)
            }
        } catch let error as NetParseError {
            throw fail("\(source): \(error.description)")
        }
        for warning in warnings.prefix(20) { printError("warning: \(source): \(warning)") }
        if warnings.count > 20 { printError("warning: \(source): \(warnings.count - 20) more lines skipped") }
        FileHandle.standardOutput.write(Data(output))
    }

    private var source: String { file ?? "standard input" }

    private func readInput() throws -> [UInt8] {
        if let file {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
                throw fail("Cannot read \(file): no such file. Give the path of a saved output.")
            }
            guard !isDirectory.boolValue else {
                throw fail("Cannot read \(file): it is a directory, not a file.")
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw fail("Cannot read \(file): permission denied or unreadable.")
            }
            return [UInt8](data)
        }
        return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Prints `essh: MESSAGE` on standard error and gives the exit status 1 to throw.
    private func fail(_ message: String) -> ExitCode {
        printError("essh: " + message)
        return ExitCode.failure
    }

    private func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
