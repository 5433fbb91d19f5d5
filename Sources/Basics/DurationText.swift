import Foundation

/// Seconds as text, one function for the whole code base. The styles differ because the places that show a duration
/// say different things (a configured timeout inside a sentence, an elapsed time in a report, a connection's length),
/// and tests assert each text exactly.
public enum DurationText {
    public enum Style: Sendable, Equatable {
        /// A bare number, the shortest that reads back exactly, no unit and no trailing `.0`: `1`, `0.5`, `2.25`.
        /// For a configured time inside a sentence ("timed out after 3 s", keepalive silences, settings).
        case number
        /// A bare number with at most one decimal, no unit: `60`, `0.3`, `2.2` (2.25 rounds as printf's `%.1f`).
        /// For the fleet's deadline and grace ("No result within 0.3 s").
        case oneDecimal
        /// Elapsed time with its unit, coarser as it grows: `0.8 s` (below 10 s), `12 s` (below 120 s),
        /// `3 min 5 s`. For fleet results and summaries.
        case elapsed
        /// Whole seconds up to hours: `42 s`, `3 min 5 s`, `2 h 1 min`. For how long a shell was connected.
        case wholeUnits
        /// Fine below a minute: `0.05 s` (two decimals below 10 s), `12.3 s` (one below 60 s), then `1 min 5 s`
        /// (seconds cut, not rounded); negative values count as 0. For a command's time in the session.
        case precise
    }

    /// `seconds` in `style`.
    public static func text(_ seconds: Double, _ style: Style) -> String {
        switch style {
        case .number:
            return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        case .oneDecimal:
            return seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
        case .elapsed:
            if seconds < 10 { return String(format: "%.1f s", seconds) }
            if seconds < 120 { return "\(Int(seconds.rounded())) s" }
            let s = Int(seconds.rounded())
            return "\(s / 60) min \(s % 60) s"
        case .wholeUnits:
            let s = Int(seconds.rounded())
            if s < 60 { return "\(s) s" }
            if s < 3600 { return "\(s / 60) min \(s % 60) s" }
            return "\(s / 3600) h \(s % 3600 / 60) min"
        case .precise:
            let s = max(0, seconds)
            if s < 10 { return String(format: "%.2f s", s) }
            if s < 60 { return String(format: "%.1f s", s) }
            return "\(Int(s) / 60) min \(Int(s) % 60) s"
        }
    }
}
