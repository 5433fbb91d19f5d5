import Foundation

/// One status line on stderr that redraws in place (at most ten times a second, and only when stderr is a
/// terminal), cleared before results are printed. Used by `essh check` and fleet runs of `essh exec`.
final class ProgressLine {
    private let enabled: Bool
    private var lastDraw: TimeInterval = 0
    private var drawn = false

    init(enabled: Bool = TerminalOutput.stderrIsTerminal) {
        self.enabled = enabled
    }

    /// Shows `text` unless a line was drawn less than 0.1 s ago; `final` draws regardless.
    func show(_ text: @autoclosure () -> String, final: Bool = false) {
        guard enabled else { return }
        let now = ProcessInfo.processInfo.systemUptime
        if now - lastDraw < 0.1 && !final { return }
        lastDraw = now
        drawn = true
        TerminalOutput.writeError("\r\u{1B}[K" + text())
    }

    func clear() {
        if drawn { TerminalOutput.writeError("\r\u{1B}[K") }
        drawn = false
    }
}
