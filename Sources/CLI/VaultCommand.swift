import ArgumentParser
import Basics
import Foundation
import Inventory
import Operations
import Vault

/// `essh vault …`: the encrypted vault of passwords and key passphrases (issue 17). The file is an age file
/// (`age -d` opens it with the vault passphrase); the commands only ever print names, kinds and times, never secrets.
struct VaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Keep server passwords and key passphrases in an encrypted vault (an age file).",
        discussion: """
            The vault is $XDG_DATA_HOME/essh/vault.age (~/.local/share/essh/vault.age), mode 0600: an age file \
            encrypted with your vault passphrase (scrypt), which Debian's `age -d` also opens. Secrets are read \
            from the terminal without echo, from --secret-file (yours only) or --secret-fd, never from the command \
            line. Each command asks the vault passphrase once, or runs vault.passphrase_command, or uses the key \
            of a running `essh vault unlock` agent.
            """,
        subcommands: [Init.self, Unlock.self, Lock.self, Status.self, SetSecret.self, Remove.self, List.self,
                      Passwd.self, ExportAge.self, Agent.self])

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new, empty vault protected by a new passphrase.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var input: SecretInput
        @OptionGroup var work: WorkFactorOption

        func run() throws {
            let access = try VaultAccess(database: database)
            if access.store.exists { throw VaultError.exists(path: access.store.path) }
            var passphrase = try access.newPassphrase(input)
            defer { Wipe.bytes(&passphrase) }
            try access.store.create(key: try AgeFile.makeKey(passphrase: passphrase, workFactor: work.workFactor))
            TerminalOutput.line("Made the vault \(access.store.path) (scrypt work factor 2^\(work.workFactor)).")
        }
    }

    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unlock the vault for a while: an agent keeps the key in memory until it is unused for "
                + "vault.idle_lock minutes, or `essh vault lock`.")
        @OptionGroup var database: DatabaseOptions
        @Option(name: .customLong("for"), help: ArgumentHelp(
            "Lock after this many seconds unused (default: the vault.idle_lock setting, in minutes).",
            valueName: "SECONDS"))
        var seconds: Int?

        func validate() throws {
            if let seconds, !(1...86_400).contains(seconds) { throw ValidationError("--for takes 1 to 86400 seconds.") }
        }

        func run() throws {
            let access = try VaultAccess(database: database)
            if !access.store.exists { throw VaultError.missing(path: access.store.path) }
            if try access.agentKey() != nil, let status = try VaultAgent.status(socketPath: access.socketPath) {
                TerminalOutput.line("The vault is already unlocked (agent \(status.pid), "
                    + "locks after \(status.secondsLeft) s unused).")
                return
            }
            _ = try? VaultAgent.lock(socketPath: access.socketPath)  // an agent with a stale key
            let key = try access.unlock().key
            let idle = seconds ?? access.settings.vaultIdleLock * 60
            let pid = try access.startAgent(key: key, idleSeconds: idle)
            TerminalOutput.line("The vault is unlocked (agent \(pid) at \(access.socketPath)); it locks after "
                + DurationText.text(Double(idle), .wholeUnits) + " unused, or on `essh vault lock`.")
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lock the vault now: the unlock agent forgets the key and ends.")

        func run() throws {
            let socketPath = VaultAgent.socketPath(environment: ProcessInfo.processInfo.environment)
            TerminalOutput.line(try VaultAgent.lock(socketPath: socketPath)
                ? "The vault is locked (the agent forgot the key)." : "The vault was not unlocked (no agent runs).")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say where the vault is, its work factor, and whether an agent holds it unlocked.")
        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let access = try VaultAccess(database: database)
            var out = "vault   \(access.store.path)" + (access.store.exists ? "\n" : " (none yet: `essh vault init`)\n")
            if access.store.exists {
                out += "work    " + (access.store.storedWorkFactor().map { "scrypt 2^\($0)" } ?? "unreadable header") + "\n"
            }
            if let status = try VaultAgent.status(socketPath: access.socketPath) {
                out += "state   unlocked by the agent (pid \(status.pid), \(access.socketPath)), locks after "
                    + "\(status.secondsLeft) s unused\n"
            } else {
                out += "state   locked\n"
            }
            TerminalOutput.write(out)
        }
    }

    /// `set` (named so Swift's `Set` stays visible).
    struct SetSecret: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Store a saved server's password (the default) or a key's passphrase in the vault.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Store the server's login password (the default).")
        var password = false
        @Option(help: ArgumentHelp("Store the passphrase of this private key file.", valueName: "KEYFILE"))
        var passphrase: String?
        @OptionGroup var input: SecretInput
        @Argument(help: "The saved server's name.", completion: ServerCompletion.names)
        var name: String

        func validate() throws {
            if password && passphrase != nil { throw ValidationError("Give --password or --passphrase KEYFILE, not both.") }
        }

        func run() throws {
            let server = try VaultCommand.server(named: name, database)
            let kind = passphrase.map { VaultSecretKind.keyPassphrase(VaultCommand.keyPath($0)) } ?? .password
            let access = try VaultAccess(database: database)
            let (key, _) = try access.unlock()
            let what = kind == .password ? "the password of \(name)" : "the passphrase of \(VaultCommand.keyPath(passphrase ?? ""))"
            var bytes = try input.read(what: what, prompt: kind == .password
                ? "Password for \(name): " : "Passphrase for \(VaultCommand.keyPath(passphrase ?? "")): ")
            try access.remember(kind, Secret(taking: &bytes), for: server, key: key)
            TerminalOutput.line("Stored \(kind) for \(server.name) in the vault.")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove a server's secrets from the vault (all of them, or the one named).")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Remove only the password.")
        var password = false
        @Option(help: ArgumentHelp("Remove only this key file's passphrase.", valueName: "KEYFILE"))
        var passphrase: String?
        @Argument(help: "The saved server's name (or, for a server no longer saved, the name the vault shows).")
        var name: String

        func run() throws {
            let access = try VaultAccess(database: database)
            let (key, document) = try access.unlock()
            // A saved server by its id; else an entry whose shown name matches (its server was removed).
            let saved = try? VaultCommand.server(named: name, database)
            let ids = saved.map { [$0.uid] } ?? document.entries.filter { $0.value.name == name }.map(\.key)
            guard let id = ids.first, ids.count == 1, document.entries[id] != nil else {
                throw CommandFailure(.badInput, ids.count > 1
                    ? "Several vault entries are named \(name); nothing was removed."
                    : "The vault holds nothing for \(name); nothing was removed.")
            }
            let path = passphrase.map { VaultCommand.keyPath($0) }
            try access.store.update(with: key) { (document: inout VaultDocument) throws(VaultError) in
                guard var entry = document.entries[id] else { return }
                if password {
                    entry.password = nil
                } else if let path {
                    entry.keyPassphrases[path] = nil
                } else {
                    entry = VaultEntry(name: entry.name, created: entry.created)
                }
                entry.changed = Date()
                document.entries[id] = entry.isEmpty ? nil : entry
            }
            TerminalOutput.line(password ? "Removed the password of \(name) from the vault."
                : path.map { "Removed the passphrase of \($0) for \(name) from the vault." }
                ?? "Removed every secret of \(name) from the vault.")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what the vault holds: server names, kinds of secret, times. Never a secret.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: #"Print JSON: {"entries":[{"id","name","kinds","created","changed"}]} (no secret)."#)
        var json = false

        struct Row: Encodable {
            var id, name: String
            var kinds: [String]
            var created, changed: Date
        }

        func run() throws {
            let access = try VaultAccess(database: database)
            let document = try access.unlock().document
            let rows = document.entries.map {
                Row(id: $0.key, name: $0.value.name, kinds: $0.value.kinds.map(\.description),
                    created: $0.value.created, changed: $0.value.changed)
            }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                struct Listing: Encodable { var entries: [Row] }
                TerminalOutput.write(String(decoding: try encoder.encode(Listing(entries: rows)), as: UTF8.self) + "\n")
                return
            }
            if rows.isEmpty {
                TerminalOutput.line("The vault is empty (`essh vault set NAME` stores a password).")
                return
            }
            let format = ISO8601DateFormatter()
            var table = TextTable(headers: ["NAME", "SECRETS", "CHANGED"])
            for row in rows {
                table.add([.init(text: row.name), .init(text: row.kinds.joined(separator: ", ")),
                           .init(text: format.string(from: row.changed))])
            }
            TerminalOutput.write(table.render(colour: TerminalOutput.colourOnStdout))
        }
    }

    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the vault passphrase (a new file key and salt; a running agent is locked).")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var input: SecretInput
        @OptionGroup var work: WorkFactorOption

        func run() throws {
            let access = try VaultAccess(database: database)
            let key = try access.unlock().key
            var passphrase = try input.read(what: "the new vault passphrase", prompt: "New vault passphrase: ")
            defer { Wipe.bytes(&passphrase) }
            try access.store.changeKey(from: key, to: try AgeFile.makeKey(passphrase: passphrase, workFactor: work.workFactor))
            let locked = (try? VaultAgent.lock(socketPath: access.socketPath)) == true
            TerminalOutput.line("The vault passphrase is changed (scrypt work factor 2^\(work.workFactor))."
                + (locked ? " The unlock agent was locked; `essh vault unlock` starts it again." : ""))
        }
    }

    struct ExportAge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export-age",
            abstract: "Write a standalone copy of the vault (mode 0600) for a backup or another machine.",
            discussion: """
                The copy is a consistent snapshot taken under the vault's lock, in the age format with the vault \
                passphrase: `age -d FILE` prints its JSON (server names, passwords, passphrases) if eSSH is gone, \
                and it can be put back as ~/.local/share/essh/vault.age. An existing FILE is not overwritten.
                """)
        @OptionGroup var database: DatabaseOptions
        @Argument(help: ArgumentHelp("Where to write the copy.", valueName: "FILE"))
        var file: String

        func run() throws {
            let access = try VaultAccess(database: database)
            let key = try access.unlock().key
            try access.store.exportCopy(with: key, to: file)
            TerminalOutput.line("Wrote \(file): `age -d \(file)` opens it with the vault passphrase.")
        }
    }

    /// The unlock agent itself, started by `unlock` with the key on its standard input.
    struct Agent: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The unlock agent (started by `essh vault unlock`; reads the key on standard input).",
            shouldDisplay: false)
        @Option var socket: String
        @Option var idle: Int

        func run() throws {
            do throws(VaultAgent.StartFailure) {
                try VaultAgent.serve(input: 0, socketPath: socket, idle: TimeInterval(idle),
                                     maxWorkFactor: VaultParameters.maxReadWorkFactor) {
                    TerminalOutput.write("ready\n")
                    // Nothing more to say: the standard streams are /dev/null from here on.
                    let null = open("/dev/null", O_RDWR)
                    if null >= 0 {
                        dup2(null, 1)
                        dup2(null, 2)
                        if null > 2 { close(null) }
                    }
                }
            } catch {
                TerminalOutput.write(error.message + "\n")
                throw ExitCode(ExitStatus.failed.rawValue)
            }
        }
    }

    /// `--work-factor N` of `init` and `passwd`.
    struct WorkFactorOption: ParsableArguments {
        @Option(help: ArgumentHelp("scrypt work factor for the new passphrase, log2 N (default "
            + "\(VaultParameters.writeWorkFactor): about 1 s to unlock; 10 to \(VaultParameters.maxReadWorkFactor)).",
            valueName: "N"))
        var workFactor = VaultParameters.writeWorkFactor

        func validate() throws {
            guard (10...VaultParameters.maxReadWorkFactor).contains(workFactor) else {
                throw ValidationError("--work-factor takes 10 to \(VaultParameters.maxReadWorkFactor).")
            }
        }
    }

    /// The saved server `name` (a missing database or name: the usual sentence, exit 2).
    static func server(named name: String, _ database: DatabaseOptions) throws -> Server {
        guard let inventory = try database.openExisting() else {
            throw InventoryError(.unknownServer, "", "No saved server is named '\(name)': there is no database at "
                + "\(database.path) yet.")
        }
        return try inventory.server(named: name)
    }

    /// A key file path as the vault keys it: `~` expanded, made absolute.
    static func keyPath(_ path: String) -> String {
        let home = XDGDirectories.home(environment: ProcessInfo.processInfo.environment)
        let expanded = PathExpansion.expandTilde(path, home: home)
        return expanded.hasPrefix("/") ? (expanded as NSString).standardizingPath
            : ((FileManager.default.currentDirectoryPath + "/" + expanded) as NSString).standardizingPath
    }
}
