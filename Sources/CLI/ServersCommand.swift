import ArgumentParser
import Basics
import Foundation
import Inventory
import Operations

/// `essh servers`: the saved servers.
struct ServersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "servers",
        abstract: "Save, change, list, import and export your servers.",
        subcommands: [Add.self, Edit.self, Remove.self, List.self, Show.self, ImportSSHConfig.self, Export.self,
                      Import.self])

    /// The fields of a server, shared by `add` and `edit`.
    struct Fields: ParsableArguments {
        @Option(help: "Host name or IP address to connect to.")
        var host: String?
        @Option(help: "SSH port, 1-65535 (default 22).")
        var port: Int?
        @Option(help: "Login user (default: your local user name).")
        var user: String?
        @Option(help: ArgumentHelp("Private key file; implies --auth key.", valueName: "PATH"))
        var key: String?
        @Option(help: "How to log in: key, agent or password (eSSH asks for it; it never stores one).")
        var auth: AuthMethod?
        @Option(help: "Operating system: auto, linux, macos, bsd or windows (auto: detected on first connect).")
        var os: ServerOS?
        @Option(name: .customLong("tag"), help: ArgumentHelp("A tag (repeat for several).", valueName: "TAG"))
        var tags: [String] = []
        @Option(help: "A note about the server.")
        var note: String?
        @OptionGroup var algorithms: AlgorithmOptions

        /// Refuses (exit status 2, as any invalid value) a list naming an algorithm eSSH does not support, before
        /// anything is saved: the same check connecting makes (Operations' `AlgorithmSelection`).
        func checkAlgorithms(serverName: String) throws {
            if let problem = AlgorithmSelection.problems(algorithms.choices, serverName: serverName).first {
                throw CommandFailure(.badInput, problem.message, detail: problem.text)
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save a new server.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "A unique name for the server (used by `essh exec NAME` and `essh check NAME`).")
        var name: String
        @OptionGroup var fields: Fields

        func validate() throws {
            guard fields.host != nil else { throw ValidationError("Give the server's address with --host HOST.") }
        }

        func run() throws {
            try fields.checkAlgorithms(serverName: name)
            let inventory = try database.open()
            let draft = ServerDraft(
                name: name, host: fields.host ?? "", port: fields.port ?? 22, user: fields.user, auth: fields.auth,
                keyPath: fields.key, os: fields.os ?? .auto, tags: fields.tags, note: fields.note ?? "",
                algorithms: fields.algorithms.choices)
            let server = try inventory.addServer(draft)
            TerminalOutput.write("Saved \(server.name) (\(ServerFormatting.address(server))).\n")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a saved server (only the options given; --tag replaces the tags; --ciphers \"\" and the "
                + "other lists go back to eSSH's defaults).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The server's name.", completion: ServerCompletion.names)
        var name: String
        @Option(help: "A new name.")
        var rename: String?
        @OptionGroup var fields: Fields

        func run() throws {
            try fields.checkAlgorithms(serverName: name)
            let inventory = try database.open()
            let changes = ServerChanges(
                name: rename, host: fields.host, port: fields.port, user: fields.user, auth: fields.auth,
                keyPath: fields.key, os: fields.os, tags: fields.tags.isEmpty ? nil : fields.tags, note: fields.note,
                algorithms: fields.algorithms.changes)
            let server = try inventory.updateServer(named: name, changes)
            TerminalOutput.write("Updated \(server.name) (\(ServerFormatting.address(server))).\n")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove saved servers with their check results and history (all or none: when a name is not "
                + "saved, nothing is removed).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The servers' names.", completion: ServerCompletion.names)
        var names: [String] = []

        func validate() throws {
            if names.isEmpty { throw ValidationError("Name the servers to remove, e.g. essh servers rm web1 web2.") }
        }

        func run() throws {
            let inventory = try database.open()
            let removed = try inventory.removeServers(named: names)
            TerminalOutput.write(removed.map { "Removed \($0).\n" }.joined())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the saved servers with their last check.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Print JSON instead of a table.")
        var json = false
        @Option(help: "Only servers with this tag.", completion: ServerCompletion.tags)
        var tag: String?

        func run() throws {
            let inventory = try database.open()
            let (servers, checks) = (try inventory.servers(taggedWith: tag), try inventory.lastCheckResults())
            if json {
                TerminalOutput.write(try ServerFormatting.json(servers, lastChecks: checks) + "\n")
            } else if servers.isEmpty {
                TerminalOutput.writeError(tag == nil
                    ? "No saved servers. Add one with `essh servers add NAME --host HOST` "
                        + "or `essh servers import-ssh-config`.\n"
                    : "No saved server has the tag '\(tag!)'.\n")
            } else {
                TerminalOutput.write(ServerFormatting.table(servers, lastChecks: checks,
                                                            colour: TerminalOutput.colourOnStdout))
            }
        }
    }

    struct ImportSSHConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-ssh-config",
            abstract: "Save the hosts of an OpenSSH client config (read only; importing again updates).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The ssh_config file (default ~/.ssh/config).")
        var file: String?

        func run() throws {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            let path = file.map { $0.hasPrefix("~/") ? home + $0.dropFirst(1) : $0 } ?? home + "/.ssh/config"
            let reader = SSHConfigReader(home: home, localUser: ProcessInfo.processInfo.userName)
            let result = try reader.read(path: path)
            for warning in result.warnings { TerminalOutput.writeError("essh: warning: \(warning)\n") }
            let inventory = try database.open()
            let summary = try inventory.importServers(result.hosts.map(\.draft))
            for skipped in summary.skipped { TerminalOutput.writeError("essh: skipped \(skipped)\n") }
            TerminalOutput.write("""
                Imported \(path): \(summary.added.count) added, \(summary.updated.count) updated, \
                \(summary.unchanged.count) unchanged, \(summary.skipped.count) skipped.

                """)
        }
    }

    struct Export: ParsableCommand {
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case sshConfig = "ssh-config"
            case json
        }

        static let configuration = CommandConfiguration(
            abstract: "Print the saved servers as ssh_config or JSON (JSON keeps every field: essh servers import "
                + "reads it back).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "ssh-config (Host blocks for ~/.ssh/config) or json.")
        var format: Format?
        @Flag(help: "JSON, the same as --format json.")
        var json = false

        func validate() throws {
            if json, let format, format != .json {
                throw ValidationError("--json and --format \(format.rawValue) ask for two formats: give one.")
            }
        }

        func run() throws {
            let inventory = try database.open()
            let servers = try inventory.servers()
            switch json ? .json : format ?? .sshConfig {
            case .sshConfig: TerminalOutput.write(try ServerFormatting.sshConfig(servers))
            case .json: TerminalOutput.write(try ServerFormatting.json(servers, lastChecks: [:]) + "\n")
            }
        }
    }
}

extension AuthMethod: ExpressibleByArgument {}
extension ServerOS: ExpressibleByArgument {}
