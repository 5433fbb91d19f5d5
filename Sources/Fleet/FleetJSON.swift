import Foundation

/// The JSON contract of `essh exec --json` for many servers:
/// `{"results":[{"name","status","exit_status","duration_ms","stdout","stderr","error"}]}`, every key present, null
/// where it does not apply (no exit status when the command never ended, no error when it ran), output as text
/// with invalid UTF-8 replaced.
public enum FleetJSON {
    /// The document for these results, in their order. Written by hand: Foundation's JSONEncoder on Linux does not
    /// keep the order in which keys are encoded, and the contract's order (name, status, exit_status, duration_ms,
    /// stdout, stderr, error) is what people read and diff.
    public static func encode(_ results: [FleetResult]) -> String {
        let items = results.map { r -> String in
            let fields: [(String, String)] = [
                ("name", quoted(r.name)),
                ("status", quoted(r.status.rawValue)),
                ("exit_status", r.exitStatus.map { String($0) } ?? "null"),
                ("duration_ms", String(Int((r.duration * 1000).rounded()))),
                ("stdout", quoted(r.stdoutText)),
                ("stderr", quoted(r.stderrText)),
                ("error", r.error.map(quoted) ?? "null"),
            ]
            return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        return "{\"results\":[" + items.joined(separator: ",") + "]}"
    }

    /// A JSON string: quote, backslash and control characters escaped, everything else as it is (UTF-8).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
