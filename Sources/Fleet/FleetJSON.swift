import Foundation

/// The JSON contract of `essh exec --json` for many servers:
/// `{"results":[{"name","status","exit_status","duration_ms","stdout","stderr","error"}]}`, every key present, null
/// where it does not apply (no exit status when the command never ended, no error when it ran), output as text
/// with invalid UTF-8 replaced.
public enum FleetJSON {
    struct Item: Encodable {
        var name, status: String
        var exitStatus: Int32?
        var durationMs: Int
        var stdout, stderr: String
        var error: String?

        enum CodingKeys: String, CodingKey {
            case name, status, exitStatus = "exit_status", durationMs = "duration_ms", stdout, stderr, error
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(status, forKey: .status)
            try c.encode(exitStatus, forKey: .exitStatus)
            try c.encode(durationMs, forKey: .durationMs)
            try c.encode(stdout, forKey: .stdout)
            try c.encode(stderr, forKey: .stderr)
            try c.encode(error, forKey: .error)
        }
    }

    struct Document: Encodable {
        var results: [Item]
    }

    /// The document for these results, in their order.
    public static func encode(_ results: [FleetResult]) -> String {
        let items = results.map {
            Item(name: $0.name, status: $0.status.rawValue, exitStatus: $0.exitStatus,
                 durationMs: Int(($0.duration * 1000).rounded()), stdout: $0.stdoutText, stderr: $0.stderrText,
                 error: $0.error)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        let data = (try? encoder.encode(Document(results: items))) ?? Data("{\"results\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
