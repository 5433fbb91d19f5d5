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
}
