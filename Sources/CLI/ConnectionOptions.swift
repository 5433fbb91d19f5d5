import ArgumentParser
import Basics
import Foundation
import Inventory
import Operations
import SSH

/// A destination made ready to connect: session options, who answers questions, and the saved server it names.
struct ResolvedConnection {
    var options: ConnectOptions
    /// Who answers questions: the terminal, or for a saved server with a `vault` or `command` credential source the
    /// `CredentialPrompter` in front of it.
    var prompter: any Prompter
    /// That credential prompter, when there is one (whether the stored secret was refused, what was typed).
    var credentials: CredentialPrompter?
    /// The saved server DEST named, if any (its user, port and key were used).
    var server: Server?
    /// The open database, when DEST named a saved server (for history and last-connected).
    var inventory: Inventory?
    /// Said when DEST could have been a saved name but there is no database (`DatabaseOptions.missingNote`).
    var missingDatabase: String?
    /// Where DEST came from ("saved server", "from ~/.ssh/config line 12", …) and what `-v` says besides.
    var origin = ""
    var notes: [String] = []
    /// Whether DEST came from ssh_config.
    var fromSSHConfig = false
    /// What ssh_config says about DEST's host, when DEST named no saved server (its forward lines, for
    /// `essh forward`).
    var sshConfig: SSHConfigLookup?

    /// Records a finished command in the saved server's history (no-op for unsaved hosts).
    func recordCommand(_ command: String, exitStatus: Int?) {
        guard let server, let inventory else { return }
        try? inventory.appendHistory(serverNamed: server.name, command: command, exitStatus: exitStatus)
    }
}

/// The options every command that logs in to a server shares (`exec`, `net`, `shell`, `forward`, `proxy`, `cp`), but
/// the port: each command has its own spelling of it (`PortOption`, `CopyPortOption`) and passes its `PortChoice`.
struct ConnectionOptions: ParsableArguments {
    @Option(name: [.customShort("l")], help: "User to log in as (default: the user in DEST, else $USER).")
    var loginName: String?

    @Option(name: [.customShort("i")], help: ArgumentHelp("Private key file (ed25519, ecdsa or RSA); repeatable.",
                                                          valueName: "keyfile"))
    var identity: [String] = []

    @Option(name: .customLong("known-hosts"), help: ArgumentHelp("known_hosts file (default ~/.ssh/known_hosts).",
                                                                 valueName: "file"))
    var knownHosts: String?

    @Option(name: .customLong("host-key-policy"),
            help: "What to do with an unknown host key: strict, accept-new or ask (default: ask on a terminal, strict otherwise). A changed key is always refused.")
    var hostKeyPolicy: String?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Seconds to wait for the server while connecting.",
                                                                    valueName: "seconds"))
    var connectTimeout: Double = 10

    @Option(name: .customLong("password-file"),
            help: ArgumentHelp("Read the password from this file (never from the command line).", valueName: "file"))
    var passwordFile: String?

    @Option(name: [.customShort("J"), .customLong("jump")],
            help: ArgumentHelp("Jump hosts to go through, nearest first, comma-separated (as ssh -J): saved servers' "
                               + "names, Hosts of ~/.ssh/config or [user@]host[:port]; instead of a saved server's "
                               + "own; none for a direct connection.", valueName: "HOP[,HOP]"))
    var jump: String?

    @Flag(name: [.customShort("v"), .long], help: "Say what happens while connecting (to stderr; never secrets).")
    var verbose = false

    @Flag(name: [.customShort("q"), .long], help: "Do not print the server's pre-login banner (as ssh -q).")
    var quiet = false

    @OptionGroup var algorithmOptions: AlgorithmOptions

    @OptionGroup var database: DatabaseOptions

    /// Options that take a value, for `CommandLineArguments` (which splits DEST from the remote command).
    static let valueOptions = Set(["-l", "-i", "-J", "--jump", "--known-hosts", "--host-key-policy",
                                   "--connect-timeout", "--password-file", "--db"]).union(AlgorithmOptions.valueOptions)

    /// `--ciphers`, `--kex`, `--macs`, `--host-key-algorithms` as written (applied after a saved server's lists).
    var algorithms: AlgorithmChoices { algorithmOptions.choices }

    func validateOptions() throws {
        if let hostKeyPolicy, HostKeyPolicy(rawValue: hostKeyPolicy) == nil {
            throw ValidationError("--host-key-policy \(hostKeyPolicy): use strict, accept-new or ask.")
        }
        if let jump, case .failure(let problem) = JumpList.hops(jump) {
            throw ValidationError("-J \(jump): \(problem.message)")
        }
        if !(connectTimeout > 0 && connectTimeout <= 3600) {
            throw ValidationError("--connect-timeout \(connectTimeout): give seconds between 0 and 3600.")
        }
        // The names alone (against everything supported), so a typo is named once before anything connects, even in
        // a fleet run; on top of a saved server's lists they are checked again when DEST is resolved.
        do throws(AlgorithmProblem) {
            _ = try AlgorithmSelection.resolve(options: algorithms, defaults: .supported)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Builds the session options and the prompter for DEST — a saved server's name, a Host in ~/.ssh/config, or
    /// [user@]host[:port] (`ConnectionProfile.resolve`, the interface's rule too) — or throws a message for the
    /// person. Options given on the command line (`port` among them) beat a saved server's values and ssh_config's.
    func resolve(_ dest: String, port choice: PortChoice) throws -> ResolvedConnection {
        var inventory: Inventory?
        var saved: Server?
        var missingDatabase: String?
        let resolution: ConnectionProfile.Resolution
        do {
            resolution = try ConnectionProfile.resolve(dest, saved: { name in
                // A saved name is looked up only in an existing database: exec to a plain host never creates one.
                guard let store = try database.openExisting() else {
                    missingDatabase = database.missingNote
                    return nil
                }
                saved = try store.findServer(named: name)
                if saved != nil { inventory = store }
                return saved
            }, context: ConnectionProfile.Context())
        } catch let error as SSHError {
            throw ValidationError(error.message)
        }
        if let d = resolution.destination {
            if let p = d.port, let port = choice.value, p != port {
                throw ValidationError("DEST says port \(p) but \(choice.flag) says \(port): give the port once.")
            }
            if let u = d.user, let loginName, u != loginName {
                throw ValidationError("DEST says user \(u) but -l says \(loginName): give the user once.")
            }
        }
        var options: ConnectOptions
        switch connectOptions(resolution.profile, port: choice.value) {
        case .success(let built): options = built
        case .failure(let problem): throw CommandFailure(.badInput, Self.sentence(problem))
        }
        let interactive = TerminalPrompter.hasTerminal
        options.setHostKeyPolicy(hostKeyPolicy.flatMap(HostKeyPolicy.init(rawValue:)) ?? (interactive ? .ask : .strict))
        if options.hostKeyPolicy == .ask && !interactive {
            throw ValidationError("--host-key-policy ask needs a terminal to ask on; use strict or accept-new in scripts.")
        }
        var password: String?
        if let passwordFile {
            password = try Self.readPasswordFile(passwordFile)
        }
        var fromSSHConfig = false
        if case .sshConfig = resolution.profile.origin { fromSSHConfig = true }
        let terminal = TerminalPrompter(passwordFromFile: password, interactive: interactive,
                                        hops: TerminalPrompter.hops(of: options))
        var credentials: CredentialPrompter?
        // --password-file names the password for this run: it beats the saved server's credential source.
        if let saved, password == nil,
           let provider = CredentialSourceCheck.provider(saved.credential, vault: VaultAccess.secrets(database)) {
            credentials = CredentialPrompter(wrapping: terminal, uid: saved.uid, host: options.host,
                                             keyFiles: options.identityFiles, provider: provider,
                                             notice: { printError($0) })
        }
        return ResolvedConnection(options: options, prompter: credentials ?? terminal, credentials: credentials,
                                  server: saved, inventory: inventory, missingDatabase: missingDatabase,
                                  origin: resolution.origin, notes: resolution.notes, fromSSHConfig: fromSSHConfig,
                                  sshConfig: resolution.sshConfig)
    }

    /// The machine as connecting sees it, with jump hosts looked up among the saved servers (`DatabaseOptions`).
    var context: ConnectionProfile.Context { database.connectionContext }

    /// `profile`'s session options under the command line's overrides, or the problem with the command line's remedy.
    func connectOptions(_ profile: ConnectionProfile, port: Int?) -> Result<ConnectOptions, ConnectionProblem> {
        let overrides = ConnectionProfile.Overrides(port: port, user: loginName, identityFiles: identity,
                                                    knownHostsFile: knownHosts, connectTimeout: connectTimeout,
                                                    algorithms: algorithms, jump: jump)
        do throws(ConnectionProblem) {
            return .success(try profile.options(overrides, context: context))
        } catch {
            return .failure(error)
        }
    }

    /// A connection problem as the command line says it.
    static func sentence(_ problem: ConnectionProblem) -> String {
        switch problem.kind {
        case .unreadableKey: return "key file \(problem.detail): it does not exist or cannot be read."
        case .jumpChain: return problem.detail + " (essh servers edit NAME --jump HOPS, or -J HOPS for this command.)"
        case .algorithms, .jumpHost: return problem.detail
        }
    }

    /// The file's first line. A file others can read is refused, as OpenSSH refuses such key files; a pipe
    /// (`--password-file <(pass show web)`) is read as it comes.
    static func readPasswordFile(_ path: String, option: String = "--password-file") throws -> String {
        let action = "read the \(option == "--password-file" ? "password" : "passphrase") file"
        var st = stat()
        guard stat(path, &st) == 0 else { throw FileSystemError(path: path, errno: errno, action: action) }
        if (st.st_mode & S_IFMT) == S_IFREG && st.st_mode & 0o077 != 0 {
            throw CommandFailure(.badInput,
                                 "\(option) \(path) can be read by other users: run chmod 600 \(path) first.")
        }
        var text = String(decoding: try InputFile.read(path, action: action), as: UTF8.self)
        if let nl = text.firstIndex(where: { $0 == "\n" || $0 == "\r" }) { text = String(text[..<nl]) }
        guard !text.isEmpty else { throw CommandFailure(.badInput, "\(option) \(path) is empty.") }
        return text
    }
}
