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

    /// The names of `sameKeyElsewhere`, each once: `web1`, `[10.0.0.5]:2222`, a hashed one as `a hashed name`.
    public var sameKeyNames: [String] {
        var names: [String] = []
        for entry in sameKeyElsewhere {
            let name = entry.isHashed ? "a hashed name" : entry.patterns
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The lines of `sameKeyElsewhere` as OpenSSH lists them: `~/.ssh/known_hosts:4: web1`, a hashed name as
    /// `[hashed name]`.
    public var sameKeyLines: [String] {
        sameKeyElsewhere.map { "\($0.file):\($0.line): " + ($0.isHashed ? "[hashed name]" : $0.patterns) }
    }

    /// `names` in a sentence, at most `limit` of them: `web1, web2, web3 and 5 more`.
    public static func shortList(_ names: [String], limit: Int = 3) -> String {
        let shown = names.prefix(limit).joined(separator: ", ")
        return names.count > limit ? shown + " and \(names.count - limit) more" : shown
    }
}
