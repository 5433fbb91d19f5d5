import Foundation

/// The real `essh` binary in a real terminal (tmux), the one way end-to-end tests start it: a private folder
/// holding its database (with the servers given, saved through `essh servers add` as a user would), its
/// known_hosts file and its XDG_STATE_HOME (the log), `TERM=xterm-256color` and `LANG=C.UTF-8`. When essh ends
/// the pane shows `ESSH-EXITED-<status> RESTORED=yes|no` and `TTY-SANE|TTY-RAW` (see `TmuxSession.launch`).
///
///     let essh = try EsshInTmux(servers: [.box()])
///     defer { essh.stop() }
///     let tmux = essh.tmux
///     try tmux.waitFor(text: "box")
///
/// Call `stop()` when done (a `defer`): it ends tmux and removes the folder.
public final class EsshInTmux: Sendable {
    /// A server to save before essh starts. Host, port and user default to the test sshd's.
    public struct Server: Sendable {
        /// How the saved server logs in.
        public enum Login: Sendable {
            /// With a key file of the harness (`id_ed25519`, `id_unauthorized`, …; see `TestServers.key`).
            case key(String)
            /// With a password, asked when connecting.
            case password
        }

        public var name: String
        public var host: String?
        public var port: Int?
        public var login: Login
        public var tags: [String]

        public init(_ name: String, host: String? = nil, port: Int? = nil, login: Login = .key("id_ed25519"),
                    tags: [String] = []) {
            self.name = name
            self.host = host
            self.port = port
            self.login = login
            self.tags = tags
        }

        /// `box`: the test sshd, logging in with the harness's key unless told otherwise.
        public static func box(login: Login = .key("id_ed25519"), port: Int? = nil) -> Server {
            Server("box", port: port, login: login)
        }
    }

    /// Which host keys essh trusts: always a file in the test's folder, so accepting a key changes nothing shared.
    public enum KnownHosts: Sendable {
        /// A copy of the test servers' known_hosts (their keys are trusted).
        case testServers
        /// None yet: essh asks about every server's key.
        case empty
    }

    /// What essh prints on the pane, followed by its exit status, when it ends.
    public static let exitMarker = "ESSH-EXITED-"

    /// The terminal essh runs in.
    public let tmux: TmuxSession
    /// The test's private folder (essh's working directory).
    public let dir: TempDir
    /// The database essh uses (`ESSH_DB`).
    public let db: String
    /// The known_hosts file essh uses (`ESSH_KNOWN_HOSTS`).
    public let knownHosts: String
    /// essh's `XDG_STATE_HOME` (its log is `stateHome/essh/essh.log`).
    public let stateHome: String
    private let ownsDir: Bool

    /// Saves `servers`, then starts `essh arguments` (shell text; none: the full-screen interface) in a `width` x
    /// `height` terminal with `environment` added and `unset` removed; `homeInFolder`: HOME is the test's
    /// folder too. `dir`: use that folder (the caller removes it) instead of a new one. `jobControl`: typed at an
    /// interactive bash (`TmuxSession.launchInShell`), so Ctrl-Z and `fg` work; the pane then shows only the exit
    /// marker when essh ends. The test servers are required only when a server is saved or their known_hosts is.
    public init(servers: [Server] = [], arguments: String = "", knownHosts: KnownHosts = .testServers,
                environment: [String: String] = [:], unset: [String] = [], homeInFolder: Bool = false,
                in dir: TempDir? = nil, width: Int = 100, height: Int = 30, jobControl: Bool = false) throws
    {
        let folder = try dir ?? TempDir()
        self.dir = folder
        ownsDir = dir == nil
        db = folder.file("essh.db")
        self.knownHosts = folder.file("known_hosts")
        stateHome = folder.file("state")
        do {
            let harness = servers.isEmpty && knownHosts == .empty ? nil : try TestServers.require()
            if knownHosts == .testServers, let harness {
                try FileManager.default.copyItem(atPath: harness.knownHosts, toPath: self.knownHosts)
            }
            for server in servers { try Self.save(server, harness!, db: db) }
            var env = ["ESSH_DB": db, "ESSH_KNOWN_HOSTS": self.knownHosts, "XDG_STATE_HOME": stateHome,
                       "TERM": "xterm-256color"]
            if homeInFolder { env["HOME"] = folder.path }
            for (k, v) in environment { env[k] = v }
            if jobControl {
                tmux = try TmuxSession.launchInShell(Binary.essh, arguments: arguments, in: folder.path,
                                                     environment: env, exitMarker: Self.exitMarker, width: width,
                                                     height: height)
            } else {
                tmux = try TmuxSession.launch(Binary.essh, arguments: arguments, in: folder.path, environment: env,
                                              unset: unset, exitMarker: Self.exitMarker, width: width, height: height)
            }
        } catch {
            if dir == nil { folder.cleanup() }
            throw error
        }
    }

    /// essh with `server` saved, in a session on it (selected, Enter, the command line waiting); essh is stopped
    /// again when the session does not open.
    public static func inSession(_ server: Server = .box(), width: Int = 100, height: Int = 30,
                                 jobControl: Bool = false) throws -> EsshInTmux {
        let essh = try EsshInTmux(servers: [server], width: width, height: height, jobControl: jobControl)
        do {
            try essh.tmux.waitFor(text: server.name)
            try essh.tmux.press("Enter")
            try essh.tmux.waitFor(text: "Type a command")
        } catch {
            essh.stop()
            throw error
        }
        return essh
    }

    /// Ends tmux (and essh with it) and removes the folder unless the caller gave it.
    public func stop() {
        tmux.kill()
        if ownsDir { dir.cleanup() }
    }

    /// Runs `essh ARGS` outside the terminal on the same database (`servers list` after the interface saved).
    public func run(_ args: [String]) throws -> RunResult {
        try Binary.runEssh(args, environment: ["ESSH_DB": db])
    }

    /// Presses `q` and waits for essh to exit with status 0.
    public func quit() throws {
        try tmux.press("q")
        try tmux.waitFor(text: Self.exitMarker + "0 ")
    }

    /// Waits for essh to have exited with `status`; returns the screen.
    @discardableResult
    public func waitForExit(_ status: Int32 = 0, timeout: TimeInterval = 15) throws -> [String] {
        try tmux.waitFor(text: Self.exitMarker + "\(status) ", timeout: timeout)
    }

    /// F10 in a session: ends it and waits for its summary.
    @discardableResult
    public func endSession() throws -> [String] {
        try tmux.press("F10")
        return try tmux.waitFor(text: "Time of connection:")
    }

    private static func save(_ server: Server, _ harness: TestServers, db: String) throws {
        let login: [String]
        switch server.login {
        case .key(let name): login = ["--key", harness.key(name)]
        case .password: login = ["--auth", "password"]
        }
        let add = try Binary.runEssh(["servers", "add", server.name, "--host", server.host ?? harness.host,
                                      "--port", "\(server.port ?? harness.port)", "--user", harness.user]
                                     + server.tags.flatMap { ["--tag", $0] } + login,
                                     environment: ["ESSH_DB": db])
        guard add.status == 0 else {
            throw TmuxSession.Failure(description: "essh servers add \(server.name) failed (\(add.status)): \(add.err)")
        }
    }
}
