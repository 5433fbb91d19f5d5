import Basics

/// The server's side of --checksum: `sha256sum`, else `shasum -a 256`, else a marker saying neither is there.
public enum ChecksumPlan {
    static let missingMarker = "essh-no-sha256-tool"

    /// One command for a POSIX shell that prints `HEX  PATH` for `path`.
    public static func command(for path: [UInt8]) -> String {
        let q = ShellQuoting.quote(path)
        return "if command -v sha256sum >/dev/null 2>&1; then sha256sum -- \(q); "
            + "elif command -v shasum >/dev/null 2>&1; then shasum -a 256 -- \(q); "
            + "else echo \(missingMarker); exit 127; fi"
    }

    /// As `command(for:)`, of the file's first `prefix` bytes only (a resumed copy's proof): `head -c` into the
    /// digest tool's standard input.
    public static func command(for path: [UInt8], prefix: Int64) -> String {
        let q = ShellQuoting.quote(path)
        return "if command -v sha256sum >/dev/null 2>&1; then t='sha256sum'; "
            + "elif command -v shasum >/dev/null 2>&1; then t='shasum -a 256'; "
            + "else echo \(missingMarker); exit 127; fi; "
            + "head -c \(prefix) < \(q) | $t && [ \"$(wc -c < \(q))\" -ge \(prefix) ]"
    }

    /// What the command printed: the digest, or why there is none.
    public enum Answer: Sendable, Equatable {
        case digest(String)
        case unavailable(String)
    }

    public static func read(stdout: [UInt8], stderr: [UInt8], status: Int32?, host: String) -> Answer {
        let text = String(decoding: stdout, as: UTF8.self)
        if text.contains(missingMarker) { return .unavailable("no sha256sum or shasum on \(host)") }
        // GNU sha256sum starts the line with a backslash when the name needs escaping (a newline, a backslash).
        let hex = (text.hasPrefix("\\") ? text.dropFirst() : Substring(text)).prefix(64)
        if status == 0, hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) { return .digest(hex.lowercased()) }
        let said = String(decoding: stderr, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return .unavailable("the checksum on \(host) failed" + (said.isEmpty ? "" : ": \(said)"))
    }
}
