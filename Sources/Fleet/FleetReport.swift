import Basics

/// The plain-text report of a run: a summary, one line per server, then the output grouped (identical outputs once,
/// with the servers that produced them). `essh exec --group` prints the grouped part; the TUI mails the whole.
/// Text only: the caller sanitises it for a screen (remote output is never obeyed).
public enum FleetReport {
    /// The whole report for `command`: header, per-server table, grouped output.
    public static func text(command: String, results: [FleetResult], elapsed: Double?) -> String {
        var out = "Command: \(command)\n"
        out += FleetSummary(results).line(elapsed: elapsed) + "\n\n"
        let nameWidth = min(40, max(6, results.map { $0.name.count }.max() ?? 6))
        let statusWidth = max(11, results.map { $0.status.label.count }.max() ?? 11)
        out += pad("SERVER", nameWidth) + "  " + pad("STATUS", statusWidth) + "  " + pad("EXIT", 4) + "  TIME\n"
        for r in results {
            let exit = r.exitStatus.map(String.init) ?? "-"
            let time = r.status.isFinal ? FleetSummary.seconds(r.duration) : "-"
            out += pad(r.name, nameWidth) + "  " + pad(r.status.label, statusWidth) + "  " + pad(exit, 4) + "  "
                + time + "\n"
        }
        out += "\n" + grouped(results)
        return out
    }

    /// The output grouped: for each group a rule with the servers and how it ended, then its stdout, its stderr
    /// (each line marked `stderr: `) and the error sentence.
    public static func grouped(_ results: [FleetResult]) -> String {
        var out = ""
        for group in FleetGroup.group(results) {
            out += heading(group) + "\n"
            out += body(group.sample)
        }
        return out
    }

    /// `== web[01-20], db1 (21 servers) · ok (exit 0)`: the servers' names folded as dshbak -c folds them
    /// (`NameFolding`), so a group of many numbered servers takes one line.
    public static func heading(_ group: FleetGroup) -> String {
        let count = group.names.count == 1 ? "" : " (\(group.names.count) servers)"
        return "== " + NameFolding.fold(group.names).joined(separator: ", ") + count + " · " + group.sample.statusText
    }

    /// One result's output as lines: stdout, stderr lines marked, the error sentence, a truncation note.
    public static func body(_ r: FleetResult) -> String {
        var out = ""
        for line in lines(r.stdoutText) { out += line + "\n" }
        for line in lines(r.stderrText) { out += "stderr: " + line + "\n" }
        if let error = r.error { out += "essh: " + error + "\n" }
        if r.truncated { out += "essh: output beyond the first MiB per stream was not kept.\n" }
        return out
    }

    /// Lines of `text` without the final newline's empty line.
    static func lines(_ text: String) -> [Substring] {
        guard !text.isEmpty else { return [] }
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
