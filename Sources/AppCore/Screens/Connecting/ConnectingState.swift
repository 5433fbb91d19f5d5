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
    /// What the login was told on the way, sanitised (a vault that would not open, a credential command that
    /// failed): shown while connecting and with the failure, so the question asked instead has its reason.
    var told: String?
    /// The hops of a connection through jump hosts, nearest first, the destination last: each one's name and the
    /// stage it reached (empty for a direct connection).
    var hops: [HopProgress] = []
    /// Where the name typed in quick connect came from ("lab1: from ~/.ssh/config line 12"); nil when the server
    /// was picked from the list.
    var origin: String?

    /// Notes a hop's stage: the hops before it have been passed through.
    mutating func record(_ progress: HopProgress) {
        if hops.count != progress.hops {
            hops = (0..<progress.hops).map { HopProgress(hop: $0, hops: progress.hops, name: "", stage: "waiting") }
        }
        guard hops.indices.contains(progress.hop) else { return }
        hops[progress.hop] = progress
        for i in 0..<progress.hop where hops[i].stage != HopProgress.passed {
            hops[i].stage = HopProgress.passed
        }
    }

    /// A banner as lines the screen can draw: escape sequences and control characters neutralised (a server's
    /// text never reaches the terminal raw), trailing blank lines dropped, at most `limit` lines kept.
    static func bannerLines(_ text: String, limit: Int = 200) -> [String] {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(limit).map { TextSanitizer.sanitize(String($0), policy: .dropStyling) }
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        return lines
    }
}

/// One hop's stage while connecting through jump hosts: hop `hop` of `hops` (the last is the destination).
public struct HopProgress: Sendable, Equatable {
    public var hop: Int
    public var hops: Int
    public var name: String
    /// The stage in words ("Verifying the host key"), or `passed` once the next hop began.
    public var stage: String

    public init(hop: Int, hops: Int, name: String, stage: String) {
        self.hop = hop
        self.hops = hops
        self.name = name
        self.stage = stage
    }

    /// A jump host the connection has gone through.
    public static let passed = "logged in, passed through"

    /// "1. b1 (jump host): Verifying the host key", "3. t2: Logging in (publickey)".
    var line: String {
        let role = hop < hops - 1 ? " (jump host)" : ""
        return "\(hop + 1). \(name.isEmpty ? "…" : name)\(role): \(stage)"
    }
}
