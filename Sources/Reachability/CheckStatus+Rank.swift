import Basics

extension CheckStatus {
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
