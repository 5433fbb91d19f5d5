import Foundation
import Reachability

/// "checked 1234/10000 · 800 online" on stderr while checks run, redrawn at most ten times a second, only when
/// stderr is a terminal.
final class CheckProgress {
    private let total: Int
    private let enabled: Bool
    private var done = 0
    private var online = 0
    private var lastDraw: TimeInterval = 0
    private var drawn = false

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func record(_ status: CheckStatus) {
        done += 1
        if status == .online { online += 1 }
        guard enabled else { return }
        let now = ProcessInfo.processInfo.systemUptime
        if now - lastDraw < 0.1 && done < total { return }
        lastDraw = now
        drawn = true
        TerminalOutput.writeError("\r\u{1B}[Kchecked \(done)/\(total) · \(online) online")
    }

    func clear() {
        if drawn { TerminalOutput.writeError("\r\u{1B}[K") }
        drawn = false
    }
}
