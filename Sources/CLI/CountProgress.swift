import Synchronization

/// "checked 1234/10000 · 800 online", "12/200 done · 11 ok": how many of `total` are done and how many went well,
/// on a `ProgressLine` (stderr, a terminal only). Used by `essh check` and by fleet runs of `essh exec`; safe to
/// call from any thread (the counts and the line are behind one lock).
final class CountProgress: Sendable {
    private struct State {
        var done = 0
        var good = 0
        let line: ProgressLine
    }

    private let total: Int
    private let format: @Sendable (_ done: Int, _ total: Int, _ good: Int) -> String
    private let state: Mutex<State>

    init(total: Int, enabled: Bool, format: @escaping @Sendable (_ done: Int, _ total: Int, _ good: Int) -> String) {
        self.total = total
        self.format = format
        state = Mutex(State(line: ProgressLine(enabled: enabled)))
    }

    func record(good isGood: Bool) {
        state.withLock { s in
            s.done += 1
            if isGood { s.good += 1 }
            s.line.show(format(s.done, total, s.good), final: s.done == total)
        }
    }

    func clear() { state.withLock { $0.line.clear() } }
}
