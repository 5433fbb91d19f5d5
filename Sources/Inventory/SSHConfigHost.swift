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
    /// The keywords that apply to this host and eSSH does not use (`LocalForward`, `ForwardAgent`, …), each once,
    /// as first written: the host is imported, but these do nothing in eSSH.
    public var unusedOptions: [String]

    /// A host.
    public init(alias: String, hostName: String? = nil, user: String? = nil, port: Int? = nil,
                identityFile: String? = nil, algorithms: AlgorithmChoices = AlgorithmChoices(),
                unusedOptions: [String] = []) {
        self.alias = alias
        self.hostName = hostName
        self.user = user
        self.port = port
        self.identityFile = identityFile
        self.algorithms = algorithms
        self.unusedOptions = unusedOptions
    }
}
