/// What an ssh_config file says about one concrete host alias, evaluated the way `ssh -G ALIAS` would for the
/// keywords eSSH imports (the first value obtained wins).
public struct SSHConfigHost: Sendable, Equatable {
    /// The alias from a `Host` line.
    public var alias: String
    /// `HostName`, when given (tokens expanded).
    public var hostName: String?
    /// `User`, when given.
    public var user: String?
    /// `Port`, when given and valid.
    public var port: Int?
    /// The first `IdentityFile`, with `~` and tokens expanded.
    public var identityFile: String?
    /// `KexAlgorithms`, `HostKeyAlgorithms`, `Ciphers`, `MACs`, as written (eSSH reads OpenSSH's syntax).
    public var algorithms: AlgorithmChoices
    /// The keywords that apply to this host and eSSH does not use (`ForwardAgent`, `LocalCommand`, …), each once,
    /// as first written: the host is imported, but these do nothing in eSSH.
    public var unusedOptions: [String]
    /// `ProxyJump` as written, or the chain a `ProxyCommand ssh -W %h:%p HOST` stands for (`SSHConfigProxy`); nil
    /// for none.
    public var jump: String?
    /// A `ProxyCommand` eSSH does not run, with its line ("ProxyCommand nc -X 5 … (file:line)"): the host is saved
    /// without it, the command kept in its note.
    public var unsupportedProxy: String?
    /// The `LocalForward`, `RemoteForward` and `DynamicForward` lines that apply, in order; none when the first
    /// `ClearAllForwardings` obtained says yes (`forwardsClearedBy` is its line).
    public var forwards: [SSHConfigForward]
    /// The `ClearAllForwardings yes` line that cleared this host's forward lines, if one did.
    public var forwardsClearedBy: SSHConfigLocation?

    /// A host.
    public init(alias: String, hostName: String? = nil, user: String? = nil, port: Int? = nil,
                identityFile: String? = nil, algorithms: AlgorithmChoices = AlgorithmChoices(),
                unusedOptions: [String] = [], jump: String? = nil, unsupportedProxy: String? = nil,
                forwards: [SSHConfigForward] = [], forwardsClearedBy: SSHConfigLocation? = nil) {
        self.alias = alias
        self.hostName = hostName
        self.user = user
        self.port = port
        self.identityFile = identityFile
        self.algorithms = algorithms
        self.unusedOptions = unusedOptions
        self.jump = jump
        self.unsupportedProxy = unsupportedProxy
        self.forwards = forwards
        self.forwardsClearedBy = forwardsClearedBy
    }
}
