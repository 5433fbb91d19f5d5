import Basics
import TUIKit

/// Styles shared by the screens.
enum Theme {
    static let bar = Style(attributes: .reverse)
    static let title = Style(attributes: [.bold, .reverse])
    static let error = Style(fg: .red, attributes: .bold)
    static let hint = Style(attributes: .dim)
    static let label = Style(attributes: .bold)
    static let field = Style(attributes: .underline)
    static let focusedField = Style(attributes: [.underline, .bold])

    /// The dot colour and text for a check status.
    static func status(_ check: ServerCheck?) -> (Style, String) {
        guard let check else { return (Style(fg: .gray), "not checked") }
        switch check.status {
        case .online:
            return (Style(fg: .green), check.latencyMs.map { latency($0) } ?? "online")
        case .refused: return (Style(fg: .red), "refused")
        case .timeout: return (Style(fg: .red), "timeout")
        case .unreachable: return (Style(fg: .red), "unreachable")
        case .dnsError: return (Style(fg: .red), "no such host")
        case .notSSH: return (Style(fg: .yellow), "not SSH")
        }
    }

    static func latency(_ ms: Double) -> String {
        ms < 10 ? String(format: "%.1f ms", ms) : "\(Int(ms.rounded())) ms"
    }
}
