import ArgumentParser
import Basics
import Foundation
import Inventory
import Logging
import Operations
import SSH
import Vault

/// `essh key install` and `essh key generate`: putting a public key on a server (what ssh-copy-id does) and making
/// a new key pair.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Install a public key on a server (as ssh-copy-id) or make a new key pair.",
        subcommands: [Install.self, Generate.self]
    )

    /// The home folder (`$HOME`).
    static var home: String { LocalUser.home() }

    /// `~/…` expanded.
    static func expand(_ path: String) -> String {
        path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a public key to ~/.ssh/authorized_keys on a server and check that it logs in.",
            discussion: """
                Logs in once (a saved server's way, usually its password: from its credential source — asked on \
                the terminal, the vault or a command — or --password-file), appends the key to ~/.ssh/authorized_keys unless the same key is there already \
                (~/.ssh made 0700 and the file 0600 when missing; a missing final newline added first), then logs \
                in again with that key alone to prove it works, and remembers it for a saved server (offered \
                first from then on). The private key must be beside the .pub file, or \
                held by ssh-agent. Then, for a saved server that logs in by password, offers to switch it to the \
                key (--switch: without asking). Exit status: 0 done, 1 the key could not be added or did not log \
                in, 2 a key or file cannot be used, 255 logging in failed.
                """)

        @Option(name: .customShort("i"), help: ArgumentHelp(
            "The public key to install (default: the first of ~/.ssh/id_ed25519.pub, id_ecdsa.pub, id_rsa.pub).",
            valueName: "KEY.pub"))
        var publicKey: String?

        @Flag(name: .customLong("switch"),
              help: "Switch the saved server to key login with this key afterwards, without asking.")
        var switchLogin = false

        @Option(name: [.customShort("l")], help: "User to log in as (default: the user in DEST, else $USER).")
        var loginName: String?

        @Option(name: .customLong("password-file"), help: ArgumentHelp(
            "Read the password from this file (never from the command line).", valueName: "file"))
        var passwordFile: String?

        @Option(name: .customLong("known-hosts"), help: ArgumentHelp("known_hosts file (default ~/.ssh/known_hosts).",
                                                                     valueName: "file"))
        var knownHosts: String?

        @Option(name: .customLong("host-key-policy"), help: ArgumentHelp(
            "What to do with an unknown host key: strict, accept-new or ask (default: ask on a terminal, strict "
            + "otherwise)."))
        var hostKeyPolicy: String?

        @Option(name: .customLong("connect-timeout"), help: ArgumentHelp(
            "Seconds to wait for the server while connecting.", valueName: "seconds"))
        var connectTimeout: Double = 10

        @Option(name: [.customShort("J"), .customLong("jump")], help: ArgumentHelp(
            "Jump hosts to go through, nearest first, comma-separated (as ssh -J).", valueName: "HOP[,HOP]"))
        var jump: String?

        @Flag(name: [.customShort("v"), .long], help: "Say what happens while connecting (to stderr; never secrets).")
        var verbose = false

        @OptionGroup var port: PortOption

        @OptionGroup var database: DatabaseOptions

        @Argument(help: ArgumentHelp("The server: a saved name, or [user@]host[:port].", valueName: "dest"),
                  completion: ServerCompletion.names)
        var dest: String

        /// The shared connection options with this command's values (its `-i` is the public key, not a login key).
        func connection() throws -> ConnectionOptions {
            var c = try ConnectionOptions.parse([])
            c.loginName = loginName
            c.passwordFile = passwordFile
            c.knownHosts = knownHosts
            c.hostKeyPolicy = hostKeyPolicy
            c.connectTimeout = connectTimeout
            c.jump = jump
            c.verbose = verbose
            c.database = database
            return c
        }

        func validate() throws { try connection().validateOptions() }

        func run() throws {
            let connection = try connection()
            var log = Logger(label: "essh") { StreamLogHandler.standardError(label: $0) }
            log.logLevel = verbose ? .debug : .critical
            guard let publicPath = publicKey.map(KeyCommand.expand) ?? PublicKey.defaultPath(home: KeyCommand.home)
            else {
                throw KeyProblem(.noKey, "No key to install: none of ~/.ssh/id_ed25519.pub, id_ecdsa.pub, id_rsa.pub "
                                 + "exists. Make one with essh key generate, or give -i KEY.pub.")
            }
            let key = try PublicKey.read(path: publicPath)
            let privateKey = PublicKey.privateKey(besides: publicPath)
            if privateKey == nil && ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"] == nil {
                throw KeyProblem(.noKey, "The private key beside \(publicPath) is missing and no ssh-agent runs: the "
                                 + "login with the key could not be checked. Install a key whose private half is here.")
            }
            let target = try connection.resolve(dest, port: port.choice)
            let cancel = try Cancellation()
            let signals = SignalCancellation(cancel)
            defer { signals.stop() }
            let session = try target.connect(dest: dest, cancel: cancel, log: log)
            let steps: [KeyInstall.Step]
            do {
                defer { session.disconnect() }
                steps = try KeyInstall.append(key, session: session, cancel: cancel)
            }
            let name = target.server?.name ?? dest
            TerminalOutput.write("\(name): logged in with the \(session.loginIdentity) to install \(key.fingerprint) "
                                 + "(\(publicPath))\n")
            for step in steps { TerminalOutput.write("\(name): \(step)\n") }
            let identity = try KeyInstall.verify(target.options, key: key, privateKey: privateKey,
                                                 prompter: target.prompter, cancel: cancel)
            TerminalOutput.write("\(name): \(KeyInstall.Step.verified(identity))\n")
            target.recordConnection()
            target.rememberIdentity(identity)
            try offerSwitch(target, privateKey: privateKey)
        }

        /// `text` as the person would type it in a shell: as it is when that is safe, else quoted.
        static func word(_ text: String) -> String {
            let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._/@:+,=-".unicodeScalars.contains($0)
            }
            return plain ? text : ShellQuoting.quote(text)
        }

        /// For a saved server that logs in by password: switch it to the key (asked y/N on a terminal, or
        /// `--switch`), through the inventory's edit, as `essh servers edit` does.
        func offerSwitch(_ target: ResolvedConnection, privateKey: String?) throws {
            guard let server = target.server, let inventory = target.inventory else {
                if switchLogin {
                    TerminalOutput.writeError("essh: --switch is for saved servers; \(dest) is not one.\n")
                }
                return
            }
            guard server.auth == .password else { return }
            let how = privateKey.map { "the key \($0)" } ?? "the agent's keys"
            var yes = switchLogin
            if !yes && TerminalPrompter.hasTerminal {
                let answer = TerminalPrompter.ask("Switch \(server.name) from password to \(how)? [y/N] ", echo: true)
                yes = ["y", "yes"].contains(answer?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
            }
            guard yes else {
                let edit = privateKey.map { "--auth key --key \(Self.word($0))" } ?? "--auth agent"
                TerminalOutput.write("\(server.name) still logs in by password (essh servers edit "
                                     + "\(Self.word(server.name)) \(edit) switches it).\n")
                return
            }
            let changes = privateKey.map { ServerChanges(auth: .key, keyPath: $0) } ?? ServerChanges(auth: .agent)
            _ = try inventory.updateServer(named: server.name, changes)
            TerminalOutput.write("\(server.name) now logs in with \(how).\n")
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new key pair in OpenSSH's format (with ssh-keygen), protected by a passphrase.",
            discussion: """
                The passphrase is asked twice on the terminal (not shown), or read from --passphrase-file (a file \
                only you can read; its first line); --no-passphrase makes a key without one. It is handed to \
                ssh-keygen through a pipe, never on a command line or in the environment. An existing file is never \
                overwritten. The private key is mode 600, the .pub 644; the fingerprint and paths are printed.
                """)

        @Option(name: .customLong("type"), help: "ed25519 (default), ecdsa or rsa.")
        var type: String = "ed25519"

        @Option(name: .customLong("bits"), help: "Key size: ecdsa 256, 384 or 521; rsa 2048 to 16384 (default 3072).")
        var bits: Int?

        @Option(name: .customLong("file"), help: ArgumentHelp("The private key's path (default ~/.ssh/id_TYPE); the "
                                                               + "public key goes beside it with .pub.",
                                                               valueName: "PATH"))
        var file: String?

        @Option(name: .customLong("comment"), help: "The key's comment (default USER@HOST).")
        var comment: String?

        @Flag(name: .customLong("no-passphrase"), help: "Make a key without a passphrase.")
        var noPassphrase = false

        @Option(name: .customLong("passphrase-file"), help: ArgumentHelp(
            "Read the passphrase from this file's first line (it must be readable by you only).", valueName: "FILE"))
        var passphraseFile: String?

        @Option(name: .customLong("remember"), help: ArgumentHelp(
            "Store the new key's passphrase in the vault for this saved server (the vault must exist: essh vault "
            + "init); the vault is opened before the key is made.", valueName: "NAME"),
            completion: ServerCompletion.names)
        var remember: String?

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard KeyGeneration.KeyType(rawValue: type) != nil else {
                throw ValidationError("--type \(type): use ed25519, ecdsa or rsa.")
            }
            if noPassphrase && passphraseFile != nil {
                throw ValidationError("--no-passphrase and --passphrase-file contradict each other: give one.")
            }
            if noPassphrase && remember != nil {
                throw ValidationError("--remember stores the key's passphrase, and --no-passphrase makes none: give one.")
            }
        }

        func run() throws {
            let keyType = KeyGeneration.KeyType(rawValue: type) ?? .ed25519
            let defaultFile = KeyGeneration.defaultFile(keyType, home: KeyCommand.home)
            let path = file.map(KeyCommand.expand) ?? defaultFile
            if file == nil && !FileManager.default.fileExists(atPath: KeyCommand.home + "/.ssh") {
                try FileManager.default.createDirectory(atPath: KeyCommand.home + "/.ssh",
                                                        withIntermediateDirectories: false,
                                                        attributes: [.posixPermissions: 0o700])
            }
            let generation = KeyGeneration(type: keyType, bits: bits, file: path,
                                           comment: comment ?? "\(LocalUser.name)@\(ProcessInfo.processInfo.hostName)")
            try generation.check()
            // The vault is opened (and the server found) before anything is made: a key whose passphrase was to be
            // remembered is not made when it cannot be.
            let vault = try remember.map { name in
                let server = try VaultCommand.server(named: name, database)
                let access = try VaultAccess(database: database)
                return (server: server, access: access, key: try access.unlock().key)
            }
            var passphrase = try self.passphrase()
            defer { for i in passphrase.indices { passphrase[i] = 0 } }
            let key = try generation.generate(passphrase: passphrase, askpass: try Askpass.executable())
            TerminalOutput.write("Made \(path) (private, mode 600\(passphrase.isEmpty ? ", no passphrase" : "")) "
                                 + "and \(path).pub.\n\(key.fingerprint) \(key.comment) (\(key.type))\n")
            if let vault {
                var copy = passphrase
                let keyPath = VaultCommand.keyPath(path)
                do {
                    try vault.access.remember(.keyPassphrase(keyPath), Secret(taking: &copy), for: vault.server,
                                              key: vault.key)
                } catch {
                    let how = "essh vault set \(vault.server.name) --passphrase \(keyPath)"
                    throw CommandFailure(.failed, "The key was made, but its passphrase was not stored in the vault: "
                                         + error.message + " Store it with: " + how)
                }
                TerminalOutput.line("Stored its passphrase for \(vault.server.name) in the vault.")
            }
        }

        /// The passphrase as bytes: empty with --no-passphrase, the file's first line, else asked twice on the
        /// terminal (they must match and not be empty).
        func passphrase() throws -> [UInt8] {
            if noPassphrase { return [] }
            if let passphraseFile {
                return Array(try ConnectionOptions.readPasswordFile(passphraseFile, option: "--passphrase-file").utf8)
            }
            guard TerminalPrompter.hasTerminal else {
                throw CommandFailure(.badInput, "No terminal to ask the passphrase on: give --passphrase-file FILE, "
                                     + "or --no-passphrase for a key without one.")
            }
            guard let first = TerminalPrompter.ask("Enter passphrase for the new key: ", echo: false),
                  let second = TerminalPrompter.ask("Enter the same passphrase again: ", echo: false) else {
                throw CommandFailure(.interrupted)
            }
            guard first == second else {
                throw KeyProblem(.badRequest, "The passphrases do not match: no key was made.")
            }
            guard !first.isEmpty else {
                throw KeyProblem(.badRequest, "An empty passphrase: give --no-passphrase for a key without one.")
            }
            return Array(first.utf8)
        }
    }
}
