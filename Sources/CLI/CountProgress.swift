/// "checked 1234/10000 · 800 online", "12/200 done · 11 ok": how many of `total` are done and how many went well,
/// on a `ProgressLine` (stderr, a terminal only). Used by `essh check` and by fleet runs of `essh exec`.
final class CountProgress: @unchecked Sendable {
    private let total: Int
    private let line: ProgressLine
    private let format: (_ done: Int, _ total: Int, _ good: Int) -> String
    private var done = 0
    private var good = 0

    init(total: Int, enabled: Bool, format: @escaping (_ done: Int, _ total: Int, _ good: Int) -> String) {
        self.total = total
        self.format = format
        line = ProgressLine(enabled: enabled)
    }

    func record(good isGood: Bool) {
        done += 1
        if isGood { good += 1 }
        line.show(format(done, total, good), final: done == total)
    }

    func clear() { line.clear() }
}
