/// What one check found, from best to worst news.
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

    /// Which result to report when a host's addresses disagree (lower is more informative).
    var rank: Int {
        switch self {
        case .online: 0
        case .notSSH: 1
        case .refused: 2
        case .timeout: 3
        case .unreachable: 4
        case .dnsError: 5
        }
    }
}
