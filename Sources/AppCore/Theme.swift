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
        // The words `essh check` and fleet runs print (CheckStatus.word): one vocabulary everywhere.
        switch check.status {
        case .online:
            return (Style(fg: .green), check.latencyMs.map { latency($0) } ?? "online")
        case .notSSH: return (Style(fg: .yellow), check.status.word)
        case .refused, .timeout, .unreachable, .dnsError: return (Style(fg: .red), check.status.word)
        }
    }

    static func latency(_ ms: Double) -> String {
        ms < 10 ? String(format: "%.1f ms", ms) : "\(Int(ms.rounded())) ms"
    }
}
