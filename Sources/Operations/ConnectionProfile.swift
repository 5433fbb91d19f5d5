import Basics
import Foundation
import Inventory
import SSH

/// Where a connection goes and how it logs in: a saved server, or a destination typed on the command line or in
/// quick connect. `options(_:context:)` is the one place that turns it into session options, for the command line,
/// the interface and fleet runs alike.
public struct ConnectionProfile: Sendable, Equatable {
    /// The saved server's name; nil for a typed destination (nothing is recorded for it).
    public var name: String?
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Login user; nil means the local user.
    public var user: String?
    /// How to log in. A typed destination uses the agent (and keys named on the command line), then passwords.
    public var auth: AuthMethod
    /// The key file of a server saved with `auth` key, as the user wrote it (may start with `~`).
    public var keyPath: String?
    /// The server's system, `auto` until detected.
    public var os: ServerOS
    /// A saved server's algorithm lists (for an old device); empty for a typed destination.
    public var algorithms: AlgorithmChoices
    /// Where the profile came from (what the person typed named a saved server, a Host in ~/.ssh/config, or a host).
    public var origin: Origin = .typed
    /// The jump hosts, as written (`JumpList`): a saved server's, or ssh_config's `ProxyJump` (or the
    /// `ProxyCommand ssh -W %h:%p HOST` it stands for); empty for a direct connection. `-J` overrides it.
    public var jump: String = ""
    /// A `ProxyCommand` ssh_config gives the host that eSSH does not run: `options` refuses it rather than
    /// connecting directly (unless `-J` says how to reach the host).
    public var unsupportedProxy: SSHConfigLookup.Value?
    /// Where a saved server's password or passphrase comes from; `ask` for a typed destination.
    public var credential: CredentialSource = .ask
    /// A saved server's stable id (the vault's key for its secrets); empty for a typed destination.
    public var uid: String = ""
    /// A saved server's row id (where `IdentityMemory.record` writes); nil for a typed destination.
    public var serverID: Int64?
    /// The identity that last logged in to the saved server (`PreferredIdentity.storedText`); `options` offers it
    /// first (`IdentityMemory.preferred`). Nil for a typed destination.
    public var lastIdentity: String?

    /// Where a profile came from.
    public enum Origin: Sendable, Equatable {
        /// A saved server.
        case saved
        /// ssh_config: the name looked up there, and the `Host` (or `Match`) line of the first block that gave it a
        /// value.
        case sshConfig(alias: String, SSHConfigLocation)
        /// A typed host name or address, nothing from ssh_config.
        case typed
    }

    /// A saved server.
    public init(server: Server) {
        name = server.name
        host = server.host
        port = server.port
        user = server.user
        auth = server.auth
        keyPath = server.keyPath
        os = server.os
        algorithms = server.algorithms
        origin = .saved
        jump = server.jump
        credential = server.credential
        uid = server.uid
        serverID = server.id
        lastIdentity = server.lastIdentity
    }

    /// A typed destination (`[user@]host[:port]`), port 22 unless it names one.
    public init(destination: Destination) {
        self.init(host: destination.host, port: destination.port ?? 22, user: destination.user)
    }

    /// A typed host.
    public init(host: String, port: Int = 22, user: String? = nil) {
        name = nil
        self.host = host
        self.port = port
        self.user = user
        auth = .agent
        keyPath = nil
        os = .auto
        algorithms = AlgorithmChoices()
    }

    /// Whether this is a saved server.
    public var isSaved: Bool { name != nil }

    /// `user@host:port` as shown in headers (`[v6]` bracketed; `:22` left out).
    public func label(localUser: String) -> String {
        let who = user ?? localUser
        let place = host.contains(":") ? "[\(host)]" : host
        return port == 22 ? "\(who)@\(place)" : "\(who)@\(place):\(port)"
    }

    /// What the person gave on the command line, beating the profile's own values.
    public struct Overrides: Sendable, Equatable {
        /// `-p`.
        public var port: Int?
        /// `-l`.
        public var user: String?
        /// `-i` (repeatable): these keys instead of the saved server's way of logging in.
        public var identityFiles: [String]
        /// `--known-hosts`.
        public var knownHostsFile: String?
        /// `--connect-timeout`.
        public var connectTimeout: Double?
        /// `--ciphers`/`-c`, `--kex`, `--macs`, `--host-key-algorithms`: applied after the saved server's lists.
        public var algorithms: AlgorithmChoices
        /// `-J`/`--jump`: these jump hosts instead of the profile's (`none`: direct).
        public var jump: String?

        public init(port: Int? = nil, user: String? = nil, identityFiles: [String] = [],
                    knownHostsFile: String? = nil, connectTimeout: Double? = nil,
                    algorithms: AlgorithmChoices = AlgorithmChoices(), jump: String? = nil) {
            self.port = port
            self.user = user
            self.identityFiles = identityFiles
            self.knownHostsFile = knownHostsFile
            self.connectTimeout = connectTimeout
            self.algorithms = algorithms
            self.jump = jump
        }
    }

    /// What the front end knows of the machine: the environment ($HOME, $ESSH_KNOWN_HOSTS), the local user, the
    /// `ssh.known_hosts` setting where it reads settings, and where jump hosts are looked up (saved servers, then
    /// ssh_config).
    public struct Context: Sendable, Equatable {
        public var environment: [String: String]
        public var localUser: String
        public var knownHostsSetting: String
        /// The saved server of a name, for jump hosts naming one; nil: no saved servers are looked up.
        public var savedServer: (@Sendable (String) throws -> Server?)?
        /// The ssh_config reader jump hosts are looked up with; nil: ~/.ssh/config under `home`, read from disk.
        public var sshConfig: SSHConfigReader?
        /// The host keys the team pinned for a host and port (`TeamPins.lookup`), for every hop; nil: none.
        public var hostKeyPins: TeamPins.Lookup?

        public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                    localUser: String = LocalUser.name, knownHostsSetting: String = "",
                    savedServer: (@Sendable (String) throws -> Server?)? = nil, sshConfig: SSHConfigReader? = nil,
                    hostKeyPins: TeamPins.Lookup? = nil) {
            self.environment = environment
            self.localUser = localUser
            self.knownHostsSetting = knownHostsSetting
            self.savedServer = savedServer
            self.sshConfig = sshConfig
            self.hostKeyPins = hostKeyPins
        }

        /// Equal when the values are; the lookups (closures, a reader) are not compared.
        public static func == (a: Context, b: Context) -> Bool {
            a.environment == b.environment && a.localUser == b.localUser && a.knownHostsSetting == b.knownHostsSetting
        }

        /// The home folder `~` stands for.
        public var home: String { LocalUser.home(environment) }

        /// The known_hosts file: `--known-hosts`, else $ESSH_KNOWN_HOSTS, else the setting, else ~/.ssh/known_hosts.
        public func knownHostsFile(explicit: String?) -> String {
            if let explicit, !explicit.isEmpty { return PathExpansion.expandTilde(explicit, home: home) }
            if let variable = environment["ESSH_KNOWN_HOSTS"], !variable.isEmpty { return variable }
            if !knownHostsSetting.isEmpty { return PathExpansion.expandTilde(knownHostsSetting, home: home) }
            return ConnectOptions.defaultKnownHostsFile
        }
    }

    /// Session options for this profile: user (`-l`, else the profile's, else the local user), port, known_hosts,
    /// connect timeout, the algorithm lists (`AlgorithmSelection`: defaults, the saved server's lists, the options),
    /// the login rule — keys given with `-i` if any; else a server saved with a key uses that key only, one saved
    /// with the agent the agent, one saved with a password no agent, and the key that logged in last time offered
    /// first (`IdentityMemory`) — and the jump hosts (`-J`, else the profile's
    /// chain), each expanded by `JumpHosts` into its own options. The host-key policy is left to the caller (ask in
    /// the interface, strict in scripts and fleets; `setHostKeyPolicy` sets it on every hop). Throws when an
    /// algorithm list names an algorithm eSSH does not support or leaves nothing to offer, when a key file cannot be
    /// read, or when the jump chain cannot be followed (a loop, too many hops, a hop that is no host).
    public func options(_ overrides: Overrides = Overrides(), context: Context) throws(ConnectionProblem)
        -> ConnectOptions
    {
        var hops = 0
        return try options(overrides, context: context, path: [], hops: &hops)
    }

    /// `options`, as a hop of a chain: `path` are the servers whose chains led here (to find a loop), `hops` counts
    /// the hops expanded so far in the whole chain.
    func options(_ overrides: Overrides, context: Context, path: [String], hops: inout Int) throws(ConnectionProblem)
        -> ConnectOptions
    {
        var options = ConnectOptions(host: host, port: overrides.port ?? port,
                                     user: overrides.user ?? user ?? context.localUser,
                                     knownHostsFile: context.knownHostsFile(explicit: overrides.knownHostsFile))
        if let timeout = overrides.connectTimeout { options.connectTimeout = timeout }
        if let pins = context.hostKeyPins?(host, options.port), !pins.isEmpty {
            options.pinnedHostKeys = pins
            options.name = options.name ?? chainName
        }
        if overrides.jump == nil, let unsupportedProxy {
            let name = chainName ?? host
            throw ConnectionProblem(.jumpHost, """
                \(name) is reached through a ProxyCommand (\(unsupportedProxy.text), \
                \(unsupportedProxy.location.text(home: context.home))) that eSSH does not run: only ProxyJump and \
                ProxyCommand ssh -W %h:%p HOST are followed. eSSH does not connect to \(name) directly instead; \
                write ProxyJump there, give -J, or use ssh for it.
                """, options)
        }
        do throws(AlgorithmProblem) {
            options.algorithms = try AlgorithmSelection.resolve(saved: algorithms, serverName: name,
                                                                options: overrides.algorithms)
        } catch {
            throw ConnectionProblem(.algorithms, error.message, options)
        }
        let home = context.home
        if !overrides.identityFiles.isEmpty {
            options.identityFiles = overrides.identityFiles.map { PathExpansion.expandTilde($0, home: home) }
        } else {
            switch auth {
            case .key:
                options.identityFiles = [PathExpansion.expandTilde(keyPath ?? "", home: home)]
                options.useAgent = false
            case .agent: options.useAgent = true
            case .password: options.useAgent = false
            }
            // The key that logged in last time goes first (not when -i names the keys for this run).
            options.preferredIdentity = IdentityMemory.preferred(lastIdentity)
        }
        for file in options.identityFiles where !FileManager.default.isReadableFile(atPath: file) {
            throw ConnectionProblem(.unreadableKey, file, options)
        }
        let chain = overrides.jump ?? jump
        if !JumpList.isDirect(chain) {
            options.name = chainName
            options.jumps = try JumpHosts.expand(chain, of: self, options: options, overrides: overrides,
                                                 context: context, path: path + [chainName ?? host], hops: &hops)
        }
        return options
    }

    /// The name a chain knows this profile by: the saved server's, else the ssh_config alias; nil for a typed host.
    var chainName: String? {
        if let name { return name }
        if case .sshConfig(let alias, _) = origin { return alias }
        return nil
    }
}

/// Why a profile cannot become session options. Each front end adds its own remedy (edit the server, fix `-i`).
public struct ConnectionProblem: UserFacingError, Sendable {
    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// A key file does not exist or cannot be read.
        case unreadableKey
        /// An algorithm list names an algorithm eSSH does not support, or leaves nothing to offer (`detail` is the
        /// sentence, naming the list, where it was written and what eSSH supports).
        case algorithms
        /// ssh_config reaches the host through a ProxyCommand eSSH does not run (`detail` is the sentence, naming
        /// the line); eSSH does not connect directly instead.
        case jumpHost
        /// The jump chain cannot be followed: a hop that is no host, a loop, more than `JumpList.maxHops` hops, a
        /// hop whose ssh_config cannot be read (`detail` is the sentence, naming the hop).
        case jumpChain
    }

    public let kind: Kind
    /// The file or value concerned (for `algorithms` and `jumpHost`, the whole sentence).
    public let detail: String
    /// The options as far as they were built (a fleet reports the problem under the server's name).
    public let options: ConnectOptions

    init(_ kind: Kind, _ detail: String, _ options: ConnectOptions) {
        self.kind = kind
        self.detail = detail
        self.options = options
    }

    /// The problem as a sentence without a remedy.
    public var message: String {
        switch kind {
        case .unreadableKey: return "The key file \(detail) does not exist or cannot be read."
        case .algorithms: return detail
        case .jumpHost, .jumpChain: return detail
        }
    }
}
