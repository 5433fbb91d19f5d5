import Basics

/// Counts of a run's statuses and the one-line summary (`5 servers: 3 ok, 1 failed, 1 unreachable in 1.2 s`).
public struct FleetSummary: Sendable, Equatable {
    public var total: Int
    public var counts: [FleetStatus: Int]

    public init(_ results: [FleetResult]) {
        total = results.count
        counts = [:]
        for r in results { counts[r.status, default: 0] += 1 }
    }

    /// Whether every server ran the command and it exited 0.
    public var allOK: Bool { counts[.ok, default: 0] == total }

    /// `5 servers: 3 ok, 1 failed, 1 unreachable` and, given the elapsed seconds, ` in 1.2 s`.
    public func line(elapsed: Double? = nil) -> String {
        let parts = FleetStatus.allCases.compactMap { status -> String? in
            guard let n = counts[status], n > 0 else { return nil }
            return "\(n) \(status.label)"
        }
        var text = "\(total) server\(total == 1 ? "" : "s"): " + (parts.isEmpty ? "none" : parts.joined(separator: ", "))
        if let elapsed { text += " in " + FleetSummary.seconds(elapsed) }
        return text
    }

    /// `0.8 s`, `12 s`, `3 min 5 s` (`DurationText`'s `elapsed` style).
    public static func seconds(_ value: Double) -> String {
        DurationText.text(value, .elapsed)
    }
}
