import Foundation
import Operations
import TUIKit

/// A connection being made: what to and the stage reached (if it fails, the Servers screen comes back).
struct ConnectingState: Sendable, Equatable {
    var target: ConnectionProfile
    var stage: String
    var startedAt: Date
    /// Open an interactive shell as soon as the session is up (the servers screen's shell key).
    var openShell = false
    /// The server's pre-login banner, sanitised, one entry per line (empty: none).
    var banner: [String] = []
    /// Where the name typed in quick connect came from ("lab1: from ~/.ssh/config line 12"); nil when the server
    /// was picked from the list.
    var origin: String?

    /// A banner as lines the screen can draw: escape sequences and control characters neutralised (a server's
    /// text never reaches the terminal raw), trailing blank lines dropped, at most `limit` lines kept.
    static func bannerLines(_ text: String, limit: Int = 200) -> [String] {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(limit).map { TextSanitizer.sanitize(String($0), policy: .dropStyling) }
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        return lines
    }
}
