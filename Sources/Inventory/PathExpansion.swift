import Foundation

/// `~` expansion the way a shell and OpenSSH do it for the current user: `~` and `~/…` only (not `~other`).
public enum PathExpansion {
    /// `path` with a leading `~` or `~/` replaced by `home`.
    public static func expandTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + String(path.dropFirst(1)) }
        return path
    }
}

extension Date {
    /// The date as the database stores it (milliseconds), so a saved record equals the record read back.
    var databasePrecision: Date {
        Date(timeIntervalSinceReferenceDate: (timeIntervalSinceReferenceDate * 1000).rounded() / 1000)
    }
}
