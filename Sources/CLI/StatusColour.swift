import Basics

/// The colour of a check status: green online, yellow not-ssh, red down (ANSI SGR codes).
enum StatusColour {
    static func code(for status: CheckStatus) -> String {
        switch status {
        case .online: "32"
        case .notSSH: "33"
        case .refused, .timeout, .unreachable, .dnsError: "31"
        }
    }
}
