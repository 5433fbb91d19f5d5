/// Where a line of an ssh_config file is.
public struct SSHConfigLocation: Sendable, Equatable, CustomStringConvertible {
    /// The file, as the reader named it (absolute).
    public var file: String
    /// The line number, from 1.
    public var line: Int

    /// A location.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The reader's "file:line" form; nil for "" (no line).
    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return nil }
        self.init(file: String(text[..<colon]), line: line)
    }

    /// "~/.ssh/config line 12": the home folder written `~`, as a person reads it.
    public func text(home: String) -> String {
        var file = self.file
        if !home.isEmpty, home != "/", file.hasPrefix(home + "/") { file = "~" + file.dropFirst(home.count) }
        return "\(file) line \(line)"
    }

    /// "/home/me/.ssh/config line 12".
    public var description: String { "\(file) line \(line)" }
}

/// What ssh_config says about one name typed where a host is expected (`essh lab1`), evaluated the way `ssh -G lab1`
/// would for the keywords eSSH uses: every `Host` line whose patterns match (wildcards, negation), the `Match` blocks
/// eSSH can evaluate, the first value obtained winning (IdentityFile collects, as in OpenSSH), each value with the
/// line it came from. Nothing here connects or checks files: Operations' `ConnectionProfile` decides what to do.
public struct SSHConfigLookup: Sendable, Equatable {
    /// One value and where it was written.
    public struct Value: Sendable, Equatable {
        /// The keyword as ssh_config(5) spells it (`HostName`, `ProxyJump`).
        public var keyword: String
        /// The value, tokens and `~` expanded where OpenSSH expands them.
        public var text: String
        /// Its line.
        public var location: SSHConfigLocation

        /// A value.
        public init(keyword: String, text: String, location: SSHConfigLocation) {
            self.keyword = keyword
            self.text = text
            self.location = location
        }
    }

    /// The name looked up.
    public var name: String
    /// `HostName` (`%h` expanded).
    public var hostName: Value?
    /// `User`.
    public var user: Value?
    /// `Port`, as written (`portNumber` says whether it is one).
    public var port: Value?
    /// Every `IdentityFile` obtained, in order (`~` and tokens expanded; `none` left out).
    public var identityFiles: [Value] = []
    /// The first of `ProxyJump` and `ProxyCommand` obtained, unless it was `none`: the host is reached through
    /// another (`jump`), or through a command eSSH does not run (`unsupportedProxy`).
    public var proxy: Value?
    /// `KexAlgorithms`, `HostKeyAlgorithms`, `Ciphers`, `MACs`, as written.
    public var algorithms = AlgorithmChoices()
    /// The `LocalForward`, `RemoteForward` and `DynamicForward` lines that apply, in order (what `ssh -N NAME` would
    /// set up); none when the first `ClearAllForwardings` obtained says yes.
    public var forwards: [SSHConfigForward] = []
    /// The `ClearAllForwardings yes` line that cleared the forward lines, if one did.
    public var forwardsClearedBy: SSHConfigLocation?
    /// The `Host` and `Match` lines whose blocks gave a value, in the order they did (lines before any Host line
    /// are their own).
    public var blocks: [SSHConfigLocation] = []
    /// Whether a `Host` line names `name` itself, not only through a wildcard.
    public var namedLiterally = false
    /// What was not understood on the way, as sentences: `Match` blocks eSSH does not evaluate (their lines are
    /// skipped), included files that could not be read.
    public var notes: [String] = []

    /// An empty lookup of `name`.
    public init(name: String) {
        self.name = name
    }

    /// The port as a number; nil without a Port or when it is not a number from 1 to 65535.
    public var portNumber: Int? { port.flatMap { Int($0.text) }.flatMap { (1...65535).contains($0) ? $0 : nil } }

    /// The jump chain: `ProxyJump` as written, or what `ProxyCommand ssh -W %h:%p HOST` stands for
    /// (`SSHConfigProxy`); nil for none, or for another ProxyCommand.
    public var jump: String? {
        guard let proxy else { return nil }
        if proxy.keyword == "ProxyJump" { return proxy.text }
        return SSHConfigProxy.jump(fromProxyCommand: proxy.text.split(separator: " ").map(String.init))
    }

    /// A `ProxyCommand` eSSH does not run (not `ssh -W %h:%p HOST`): connecting refuses rather than going direct.
    public var unsupportedProxy: Value? {
        guard let proxy, proxy.keyword == "ProxyCommand", jump == nil else { return nil }
        return proxy
    }

    /// Whether ssh_config gave `name` anything eSSH uses to connect (forward lines are `essh forward`'s alone).
    public var isEmpty: Bool {
        hostName == nil && user == nil && port == nil && identityFiles.isEmpty && proxy == nil && algorithms.isEmpty
    }

    /// The values found, in ssh_config's words, one per entry (`HostName 10.0.0.5 (~/.ssh/config line 13)`), for
    /// `-v` and the interface.
    public func valueLines(home: String) -> [String] {
        let values = [hostName, user, port].compactMap { $0 } + identityFiles + [proxy].compactMap { $0 }
        return values.map { "\($0.keyword) \($0.text) (\($0.location.text(home: home)))" }
    }
}
