import Basics
import Foundation
import Inventory
import Reachability

/// Check results as a table or as JSON. Pure.
enum CheckReport {
    struct Row {
        /// A saved server's name, or an unsaved host as typed.
        var name: String
        var host: String
        var port: Int
        var outcome: CheckOutcome
    }

    static func table(_ rows: [Row], colour: Bool) -> String {
        var table = TextTable(headers: ["NAME", "HOST", "PORT", "STATUS", "LATENCY", "BANNER / ERROR"])
        for row in rows {
            let o = row.outcome
            table.add([
                .init(text: row.name), .init(text: o.via.map { "\(row.host) via \($0)" } ?? row.host),
                .init(text: String(row.port)),
                .init(text: o.status.word, colour: StatusColour.code(for: o.status)),
                .init(text: o.latencyMs.map { String(format: "%.1f ms", $0) } ?? "-"),
                .init(text: o.status == .online ? (o.banner ?? "") : (o.error ?? "")),
            ])
        }
        let online = rows.filter { $0.outcome.status == .online }.count
        return table.render(colour: colour) + "\(online) of \(rows.count) online\n"
    }

    struct ResultJSON: Encodable {
        var name, host: String
        var port: Int
        var status: CheckStatus
        var latencyMs: Double?
        var banner, error: String?
        /// The jump host the check went through; null for a direct check.
        var via: String?

        enum CodingKeys: String, CodingKey {
            case name, host, port, status, latencyMs = "latency_ms", banner, error, via
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(host, forKey: .host)
            try c.encode(port, forKey: .port)
            try c.encode(status.word, forKey: .status)
            try c.encode(latencyMs, forKey: .latencyMs)
            try c.encode(banner, forKey: .banner)
            try c.encode(error, forKey: .error)
            try c.encode(via, forKey: .via)
        }
    }

    struct ReportJSON: Encodable {
        var results: [ResultJSON]
    }

    static func json(_ rows: [Row]) throws -> String {
        let results = rows.map {
            ResultJSON(name: $0.name, host: $0.host, port: $0.port,
                       status: $0.outcome.status, latencyMs: $0.outcome.latencyMs,
                       banner: $0.outcome.banner, error: $0.outcome.error, via: $0.outcome.via)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(ReportJSON(results: results)), as: UTF8.self)
    }
}
