import Foundation

/// Everything needed to open an authenticated session.
public struct ConnectOptions: Sendable {
    public var host: String
    public var port: Int = 22
    public var user: String
    /// Seconds for each network wait while connecting and authenticating (time spent in prompts is not counted).
    public var connectTimeout: Double = 10
    /// The user's known_hosts (new keys are appended here).
    public var knownHostsFile: String
    /// Read too, never written (OpenSSH's GlobalKnownHostsFile).
    public var globalKnownHostsFiles: [String] = ["/etc/ssh/ssh_known_hosts"]
    public var hostKeyPolicy: HostKeyPolicy = .strict
    /// The host keys a team pinned for this host and port (this hop only; each jump host has its own). When not
    /// empty they decide instead of known_hosts: a presented key equal to a pin is accepted under every policy,
    /// without a question and without writing known_hosts; any other key is refused (`hostKeyChanged`). A key marked
    /// `@revoked` in known_hosts is refused all the same. Their types are offered first in the handshake.
    public var pinnedHostKeys: [PinnedHostKey] = []
    /// Write new known_hosts lines hashed, as Debian's OpenSSH does (HashKnownHosts yes).
    public var hashKnownHosts: Bool = true
    /// Key files given explicitly (`-i`); when empty, the agent and then ~/.ssh/id_ed25519 and id_ecdsa are tried.
    public var identityFiles: [String] = []
    public var useAgent: Bool = true
    /// The key to offer first, before the agent's other keys and the key files (the one that logged in last time,
    /// `SSHSession.loginIdentity.preferred`), so a server with a small `MaxAuthTries` lets in a user whose agent holds
    /// many keys. A key file is tried even when `identityFiles` does not name it; an agent key only when `useAgent`
    /// and the agent holds it. One that is gone or refused costs one attempt, then the usual order follows (without
    /// offering it twice). nil: the usual order.
    public var preferredIdentity: PreferredIdentity?
    /// ssh-agent's socket (OpenSSH's IdentityAgent); nil: `SSH_AUTH_SOCK`.
    public var agentSocket: String?
    public var allowPassword: Bool = true
    public var allowKeyboardInteractive: Bool = true
    /// Seconds between keepalives while a command or shell waits (0: off).
    public var keepaliveInterval: Int = 15
    /// The algorithms offered, each list in order of preference (Operations builds them from the defaults, a saved
    /// server's fields and the command line's options; names this libssh2 cannot do are dropped).
    public var algorithms: Algorithms = .defaults
    /// How messages name this server when it is one hop of several ("bastion", a saved server's name); nil: its
    /// host. Used only with jump hosts, so direct connections keep their words.
    public var name: String?
    /// The jump hosts to pass through, nearest first (OpenSSH's ProxyJump), each with its own options: host, port,
    /// user, keys, agent, known_hosts, host-key policy, algorithms, keepalive. Each next hop, and this server last,
    /// is reached over a `direct-tcpip` channel of the one before. A hop's own `jumps` come before it. Empty: direct.
    public var jumps: [ConnectOptions] = []

    public init(host: String, port: Int = 22, user: String, knownHostsFile: String) {
        self.host = host
        self.port = port
        self.user = user
        self.knownHostsFile = knownHostsFile
    }

    /// `~/.ssh/known_hosts`.
    public static var defaultKnownHostsFile: String { homeDirectory + "/.ssh/known_hosts" }

    /// The default identities OpenSSH tries, those that exist.
    public static var defaultIdentityFiles: [String] {
        ["id_ed25519", "id_ecdsa", "id_rsa"].map { homeDirectory + "/.ssh/" + $0 }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    static var homeDirectory: String {
        ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    }
}

/// Stages of a connection, reported as they begin (for a spinner).
public enum ConnectStage: Sendable, Equatable {
    case resolving
    case connecting(address: String)
    case handshaking
    case verifyingHostKey
    case authenticating(method: String)
    /// The server's pre-login banner (sshd's `Banner`), as sent: raw text from the server, to be sanitised before
    /// it reaches a terminal. Reported once, before any password or passphrase is asked for.
    case banner(String)
}

/// A connect stage of one hop of a jump chain: hop `hop` of `hops` (0 is the first jump host, `hops - 1` the
/// destination), named `name` ("bastion", or its host).
public struct HopStage: Sendable, Equatable {
    public let hop: Int
    public let hops: Int
    public let name: String
    public let stage: ConnectStage

    public init(hop: Int, hops: Int, name: String, stage: ConnectStage) {
        self.hop = hop
        self.hops = hops
        self.name = name
        self.stage = stage
    }
}

/// Questions eSSH may have to ask the person while connecting. The CLI asks on the terminal, the TUI in a dialog,
/// scripts answer from a file or not at all (return nil / `.reject`). Answers are never logged or stored.
public protocol Prompter: Sendable {
    /// An unknown host key under the `ask` policy.
    func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision
    /// The password for `user@host`; nil to skip password authentication. `attempt` counts from 1.
    func password(user: String, host: String, attempt: Int) -> String?
    /// The passphrase for an encrypted key file; nil to skip that key.
    func passphrase(keyFile: String, attempt: Int) -> String?
    /// Keyboard-interactive prompts (text, echo); nil to give up.
    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]?
    /// Keyboard-interactive prompts from `host` logging in `user` (a jump host or the destination): what the
    /// authenticator asks. By default the same as `keyboardInteractive(name:instruction:prompts:)`; a prompter
    /// holding one server's password answers only that server's prompts.
    func keyboardInteractive(user: String, host: String, name: String, instruction: String,
                             prompts: [(text: String, echo: Bool)]) -> [String]?
}

extension Prompter {
    public func keyboardInteractive(user: String, host: String, name: String, instruction: String,
                                    prompts: [(text: String, echo: Bool)]) -> [String]? {
        keyboardInteractive(name: name, instruction: instruction, prompts: prompts)
    }
}

/// A prompter that never asks anyone: no passwords, unknown keys refused. For scripts and tests.
public struct NonInteractivePrompter: Prompter {
    public let fixedPassword: String?
    public let fixedPassphrase: String?
    /// The one host the password is for (the destination, not its jump hosts); nil: any host that asks.
    public let passwordHost: String?
    public init(password: String? = nil, passphrase: String? = nil, onlyFor passwordHost: String? = nil) {
        fixedPassword = password
        fixedPassphrase = passphrase
        self.passwordHost = passwordHost
    }
    public func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision { .reject }
    public func password(user: String, host: String, attempt: Int) -> String? {
        guard passwordHost == nil || passwordHost == host else { return nil }
        return attempt == 1 ? fixedPassword : nil
    }
    public func keyboardInteractive(user: String, host: String, name: String, instruction: String,
                                    prompts: [(text: String, echo: Bool)]) -> [String]? {
        guard passwordHost == nil || passwordHost == host else { return nil }
        return keyboardInteractive(name: name, instruction: instruction, prompts: prompts)
    }
    public func passphrase(keyFile: String, attempt: Int) -> String? { attempt == 1 ? fixedPassphrase : nil }
    public func keyboardInteractive(name: String, instruction: String,
                                    prompts: [(text: String, echo: Bool)]) -> [String]? {
        guard let fixedPassword, prompts.allSatisfy({ !$0.echo }) else { return nil }
        return prompts.map { _ in fixedPassword }
    }
}
