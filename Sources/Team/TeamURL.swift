import CLibPQ
import Foundation

/// A team database's connection string (`postgres://ana@db.example.org/essh?sslmode=verify-full` or libpq's
/// `key=value` form), read by libpq's own parser, so every spelling libpq takes is taken.
public struct TeamURL: Sendable, Equatable {
    /// The string as given.
    public let text: String
    /// The options it sets, by libpq keyword.
    public let options: [String: String]

    public init(_ text: String) throws(TeamError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw TeamError(.badURL, "No team database was given: pass a URL such as postgres://USER@HOST/DATABASE.")
        }
        try TeamError.loadLibrary()
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = essh_PQconninfoParse(trimmed, &error) else {
            let reason = error.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
                ?? "libpq cannot read it"
            if let error { essh_PQfreemem(error) }
            throw TeamError(.badURL, "The team database URL \(TeamURL.quoted(trimmed)) cannot be read: \(reason). "
                + "Write it as postgres://USER@HOST[:PORT]/DATABASE[?sslmode=verify-full].")
        }
        defer { essh_PQconninfoFree(parsed) }
        var options: [String: String] = [:]
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { options[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        if options["password"] != nil {
            throw TeamError(.badURL, "The team database URL holds a password: eSSH never takes one on the command "
                + "line (the process list and shell history would show it). Remove it from the URL; eSSH asks for "
                + "it once and keeps it in the vault, or reads ~/.pgpass.")
        }
        guard options["dbname"].map({ !$0.isEmpty }) ?? false else {
            throw TeamError(.badURL, "The team database URL \(TeamURL.quoted(trimmed)) names no database: write it "
                + "as postgres://USER@HOST[:PORT]/DATABASE.")
        }
        self.text = trimmed
        self.options = options
    }

    /// Whether the URL asks for a verified certificate without naming the CA file to verify it with (and
    /// ~/.postgresql/root.crt, libpq's own default, is absent).
    public var needsCABundle: Bool {
        guard let mode = options["sslmode"], mode == "verify-full" || mode == "verify-ca" else { return false }
        guard options["sslrootcert"] == nil else { return false }
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        return !FileManager.default.fileExists(atPath: home + "/.postgresql/root.crt")
    }

    /// The id the vault keeps this database's password under (`team:user@host:port/database`): the command line
    /// stores it there, the interface's team worker reads it.
    public var vaultID: String { "team:" + display }

    /// `user@host:port/database` for messages.
    public var display: String {
        let host = options["host"] ?? options["hostaddr"] ?? "localhost"
        let port = options["port"].map { ":" + $0 } ?? ""
        let user = options["user"].map { $0 + "@" } ?? ""
        return "\(user)\(host)\(port)/\(options["dbname"] ?? "")"
    }

    private static func quoted(_ text: String) -> String {
        "“" + String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }) + "”"
    }
}
