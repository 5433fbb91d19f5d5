/// What to do with a host key that known_hosts does not hold yet (OpenSSH's StrictHostKeyChecking).
/// A changed or revoked key is refused under every policy.
public enum HostKeyPolicy: String, Sendable, CaseIterable {
    /// Refuse unknown keys: the user must add them first.
    case strict
    /// Save unknown keys and go on (OpenSSH's `accept-new`).
    case acceptNew = "accept-new"
    /// Ask the person (through `Prompter.confirmHostKey`).
    case ask
}

/// The person's answer when asked about an unknown host key.
public enum HostKeyDecision: Sendable {
    case acceptAndSave
    case acceptOnce
    case reject
}

/// What the person is shown when a host key is unknown.
public struct HostKeyQuestion: Sendable {
    public let host: String
    public let port: Int
    public let key: HostKey
    /// Keys of other types this host already has (OpenSSH mentions them too).
    public let otherKnownTypes: [KnownHosts.Entry]
    /// Lines holding this very key under other names or addresses (`KnownHosts.otherNames`).
    public let sameKeyElsewhere: [KnownHosts.Entry]

    /// The names of `sameKeyElsewhere` as a person reads them: `web1 (~/.ssh/known_hosts line 4)`, a hashed one as
    /// `a hashed name (… line 7)`.
    public var sameKeyNames: [String] {
        sameKeyElsewhere.map { ($0.isHashed ? "a hashed name" : $0.patterns) + " (\($0.file) line \($0.line))" }
    }
}
