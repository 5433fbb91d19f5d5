import Foundation
import Reachability

/// "checked 1234/10000 · 800 online" on stderr while checks run (a `ProgressLine`).
final class CheckProgress {
    private let total: Int
    private let line: ProgressLine
    private var done = 0
    private var online = 0

    init(total: Int, enabled: Bool) {
        self.total = total
        line = ProgressLine(enabled: enabled)
    }

    func record(_ status: CheckStatus) {
        done += 1
        if status == .online { online += 1 }
        line.show("checked \(done)/\(total) · \(online) online", final: done == total)
    }

    func clear() { line.clear() }
}
