/// What one online check of a server found, from best to worst news: Reachability's verdict, and the same value
/// stored in the inventory (`checkResult.status`), shown by the interface and printed by `essh check` and
/// `essh servers list`. The raw values are the stored words and never change; `word` is the one shown.
public enum CheckStatus: String, Sendable, Codable, CaseIterable {
    /// The port answered with an `SSH-` identification line.
    case online
    /// The port is open but sent no SSH identification (nothing within the timeout, or another line).
    case notSSH = "not-ssh"
    /// The host answered that the port is closed.
    case refused
    /// No answer within the timeout.
    case timeout
    /// The network said the host cannot be reached.
    case unreachable
    /// The name did not resolve.
    case dnsError = "dns-error"

    /// The word shown for it by `essh check`, `essh servers list`, their JSON and the interface's list: the word a
    /// fleet run uses for the same finding (README, "Status words"). The stored word (`rawValue`) never changes, so
    /// `timeout` is stored and `timed-out` shown.
    public var word: String { self == .timeout ? "timed-out" : rawValue }
}
