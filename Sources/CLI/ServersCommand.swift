import ArgumentParser
import Basics
import Foundation
import Forwarding
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
        @Option(help: ArgumentHelp("Host name or IP address to connect to; user@host:port and ssh://user@host:port "
                                   + "are split into the three (IPv6: [2001:db8::1]:2222)."))
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
        @Option(help: ArgumentHelp("Jump hosts to go through, nearest first, comma-separated: saved servers' names or "
                                   + "[user@]host[:port] (as ssh -J); none for a direct connection.",
                                   valueName: "HOP[,HOP]"))
        var jump: String?
        @Option(name: .customLong("forward"),
                help: ArgumentHelp("A saved tunnel: L:[bind:]port:host:hostport, R:[bind:]port:host:hostport or "
                                   + "D:[bind:]port, as ssh's -L/-R/-D (repeat for several; edit adds to the saved "
                                   + "ones); none removes them all.", valueName: "SPEC"))
        var forwards: [String] = []
        @Option(name: .customLong("no-forward"),
                help: ArgumentHelp("Remove this saved tunnel (edit; repeat for several).", valueName: "SPEC"))
        var removedForwards: [String] = []
        @Flag(inversion: .prefixedNo,
              help: "Start the saved tunnels when the interface starts (or not).")
        var autostart: Bool?
        @Option(help: ArgumentHelp("Where the password or key passphrase comes from: ask (asked each time, the "
                                   + "default), vault (eSSH's vault) or command:\"PROGRAM ARGS\" (a program that "
                                   + "prints it, such as command:\"pass show servers/db1\"; run without a shell).",
                                   valueName: "SOURCE"))
        var credential: String?
        @OptionGroup var algorithms: AlgorithmOptions

        /// The credential source given, checked by the one rule the form uses too (`CredentialSourceCheck`: the
        /// spelling, a command's program on PATH or absolute); refuses (2) before anything is saved.
        func credentialSource() throws -> CredentialSource? {
            guard let credential else { return nil }
            switch CredentialSourceCheck.parse(credential) {
            case .success(let source): return source
            case .failure(let problem): throw CommandFailure(.badInput, "--credential: " + problem.message)
            }
        }

        /// The tunnels to add (saved form) and whether `none` clears the old ones; refuses (2) a forward the
        /// parser of -L/-R/-D refuses, before anything is saved.
        func forwardChanges(server: String, saved: [String] = []) throws -> ForwardChanges {
            var changes = ForwardChanges()
            do throws(ForwardError) {
                for text in forwards {
                    if SavedTunnels.isNone(text) {
                        changes.clear = true
                    } else {
                        let forward = try SavedTunnels.normalised(text)
                        if !changes.add.contains(forward) { changes.add.append(forward) }
                    }
                }
                for text in removedForwards {
                    let forward = try SavedTunnels.normalised(text)
                    guard saved.contains(forward) else {
                        let list = saved.isEmpty ? "it has none" : "its tunnels: " + saved.joined(separator: ", ")
                        throw ForwardError(.badSpec, "\(server) has no saved tunnel \(forward) (\(list)).")
                    }
                    changes.remove.append(forward)
                }
            } catch {
                throw CommandFailure(.badInput, "--forward: " + ControlCharacters.visible(error.message))
            }
            return changes
        }

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
        @Flag(help: "Add it to the team's shared list (an editor; see `essh team`), not only yours.")
        var team = false

        func validate() throws {
            guard fields.host != nil else { throw ValidationError("Give the server's address with --host HOST.") }
        }

        func run() throws {
            try fields.checkAlgorithms(serverName: name)
            // `--host admin@web1:2222` and `ssh://admin@web1:2222` are split, as the form splits them.
            let address = try ServerAddress.parts(fields.host ?? "", user: fields.user, port: fields.port)
            if !fields.removedForwards.isEmpty {
                throw ValidationError("--no-forward is for essh servers edit: a new server has no tunnels to remove.")
            }
            let forwards = try fields.forwardChanges(server: name)
            let credential = try fields.credentialSource()
            let inventory = try database.open()
            let draft = ServerDraft(
                name: name, host: address.host, port: address.port ?? 22, user: address.user, auth: fields.auth,
                keyPath: fields.key, os: fields.os ?? .auto, tags: fields.tags, note: fields.note ?? "",
                algorithms: fields.algorithms.choices, jump: fields.jump ?? "", forwards: forwards.add,
                autostart: fields.autostart ?? false, credential: credential ?? .ask)
            try Self.checkJump(fields.jump, name: name, inventory: inventory)
            let server = try inventory.addServer(draft, team: team)
            TerminalOutput.write("Saved \(server.name) (\(ServerFormatting.address(server)))"
                + (team ? " for the team.\n" : ".\n"))
            if team { TeamCommand.pushSoon(inventory, database: database) }
        }

        /// Refuses (2) a jump chain that is malformed or loops through saved servers (Operations' `JumpHosts`, the
        /// form's rule too), before anything is saved.
        static func checkJump(_ jump: String?, name: String, inventory: Inventory) throws {
            guard let jump else { return }
            if let problem = JumpHosts.problem(name: name, chain: jump, saved: { try? inventory.findServer(named: $0) }) {
                throw CommandFailure(.badInput, "--jump \(ControlCharacters.visible(jump)): \(problem)")
            }
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
            let credential = try fields.credentialSource()
            // Nothing to change without a database: a mistyped --db creates none.
            guard let inventory = try database.openExisting() else {
                throw InventoryError(.unknownServer, "", "No saved server is named '\(name)'. \(database.missingNote)")
            }
            let address = try fields.host.map { try ServerAddress.parts($0, user: fields.user, port: fields.port) }
            let saved = fields.removedForwards.isEmpty ? [] : try inventory.server(named: name).forwards
            let changes = ServerChanges(
                name: rename, host: address?.host, port: address?.port ?? fields.port,
                user: address?.user ?? fields.user, auth: fields.auth,
                keyPath: fields.key, os: fields.os, tags: fields.tags.isEmpty ? nil : fields.tags, note: fields.note,
                algorithms: fields.algorithms.changes, jump: fields.jump,
                forwards: try fields.forwardChanges(server: name, saved: saved), autostart: fields.autostart,
                credential: credential)
            try Add.checkJump(fields.jump, name: rename ?? name, inventory: inventory)
            let server = try inventory.updateServer(named: name, changes)
            TerminalOutput.write("Updated \(server.name) (\(ServerFormatting.address(server))).\n")
            if server.isShared { TeamCommand.pushSoon(inventory, database: database) }
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
            // Nothing to remove without a database: a mistyped --db creates none.
            guard let inventory = try database.openExisting() else {
                throw InventoryError(.unknownServer, "", """
                    No saved servers are named \(names.joined(separator: ", ")); nothing was removed. \
                    \(database.missingNote)
                    """)
            }
            let removed = try inventory.removeServers(named: names)
            TerminalOutput.write(removed.map { "Removed \($0).\n" }.joined())
            TeamCommand.pushSoon(inventory, database: database)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the saved servers with their last check (all, or those the selectors pick).",
            discussion: """
                Servers are picked as by every command (see README's selectors): names, patterns (web[01-20], db*), \
                tag:TAG, !NAME or --exclude to leave some out, --tag (repeatable), a hosts file (-h FILE); a \
                selector that names no saved server is an error. A missing database is named; none is created.
                """,
            helpNames: SelectionOptions.helpNames)
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Print JSON instead of a table.")
        var json = false
        @OptionGroup var selection: SelectionOptions
        @Argument(help: ArgumentHelp("Names, patterns (web[01-20], db*), tag:TAG or !SELECTOR (default: every saved "
                                     + "server).", valueName: "selector"),
                  completion: ServerCompletion.selectors)
        var selectors: [String] = []

        func validate() throws {
            _ = try selection.selectors(selectors)
        }

        func run() throws {
            // Only read: a mistyped --db creates nothing, and says where it looked.
            let inventory = try database.openExisting()
            let picks = try SelectionOptions.resolve(try selection.selection(selectors), store: inventory,
                                                     database: database, hosts: false, defaultAll: true)
            let picked = Set(picks.map(\.name))
            // In the saved order (by name), whatever order the selectors named them in.
            let servers = try inventory?.servers().filter { picked.contains($0.name) } ?? []
            let checks = try inventory?.lastCheckResults() ?? [:]
            if json {
                TerminalOutput.write(try ServerFormatting.json(servers, lastChecks: checks) + "\n")
            } else if servers.isEmpty {
                TerminalOutput.writeError("No saved servers. Add one with `essh servers add NAME --host HOST` "
                                          + "or `essh servers import-ssh-config`."
                                          + (inventory == nil ? " " + database.missingNote : "") + "\n")
            } else {
                var seen = ServerFormatting.TeamSeen()
                if servers.contains(where: \.isShared), let inventory {
                    seen = ServerFormatting.TeamSeen(checks: try inventory.teamChecksByServer(),
                                                     member: try inventory.teamLink()?.member)
                }
                TerminalOutput.write(ServerFormatting.table(servers, lastChecks: checks, seen: seen,
                                                            colour: TerminalOutput.colourOnStdout))
            }
            if json && inventory == nil { TerminalOutput.writeError(database.missingNote + "\n") }
        }
    }

    struct ImportSSHConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-ssh-config",
            abstract: "Save the hosts of an OpenSSH client config (read only; importing again updates).",
            discussion: """
                Each Host's HostName, User, Port, first IdentityFile, ProxyJump (or ProxyCommand ssh -W %h:%p HOST), \
                KexAlgorithms, HostKeyAlgorithms, Ciphers and MACs are saved; its LocalForward, RemoteForward and \
                DynamicForward lines become saved tunnels (essh forward NAME starts them), unless \
                ClearAllForwardings yes applies. What eSSH cannot use is said and left out: other options, another \
                ProxyCommand, and forwards of Unix-domain sockets or a RemoteForward without a target (those two \
                kept in the note of a server added). Importing again updates the connection fields and adds new \
                tunnels; tags, notes and the tunnels saved in eSSH stay.
                """)
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The ssh_config file (default ~/.ssh/config).")
        var file: String?

        func run() throws {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            let path = file.map { $0.hasPrefix("~/") ? home + $0.dropFirst(1) : $0 } ?? home + "/.ssh/config"
            let reader = SSHConfigReader(home: home, localUser: ProcessInfo.processInfo.userName)
            // The interface's first-start import goes through the same plan and save.
            let plan = try SSHConfigImport.plan(path: path, reader: reader)
            for warning in plan.warnings { TerminalOutput.writeError("essh: warning: \(warning)\n") }
            let outcome = try SSHConfigImport.save(plan, into: try database.open())
            for line in outcome.skipped { TerminalOutput.writeError("essh: skipped \(line)\n") }
            for line in Self.unusedLines(outcome.partly) { TerminalOutput.writeError("essh: \(line)\n") }
            for host in outcome.unsupportedProxies {
                TerminalOutput.writeError("essh: \(host.alias): \(host.unsupportedProxy ?? "") is not supported (only "
                                          + "ProxyJump and ProxyCommand ssh -W %h:%p HOST are); saved without it, the "
                                          + "command kept in its note: give it --jump, or use ssh for it\n")
            }
            for line in outcome.refusedForwards {
                TerminalOutput.writeError("essh: \(line); left out (a server added now keeps the line in its note)\n")
            }
            TerminalOutput.write("Imported \(path): \(outcome.counts).\n")
        }

        /// The options eSSH does not use, one line per list, naming the hosts it applies to (folded, as
        /// `web[01-20]`): each host and each of its options said once.
        static func unusedLines(_ hosts: [SSHConfigHost]) -> [String] {
            var order: [[String]] = []
            var aliases: [[String]: [String]] = [:]
            for host in hosts {
                if aliases[host.unusedOptions] == nil { order.append(host.unusedOptions) }
                aliases[host.unusedOptions, default: []].append(host.alias)
            }
            return order.map { options in
                let names = NameFolding.fold(aliases[options]!).joined(separator: ", ")
                return "\(names): not used by eSSH (imported without): \(options.joined(separator: ", "))"
            }
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
            // Only read: a mistyped --db creates nothing; with no database there is nothing to export, said so.
            guard let inventory = try database.openExisting() else {
                throw CommandFailure(.badInput, "Nothing to export: no servers are saved. " + database.missingNote)
            }
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
