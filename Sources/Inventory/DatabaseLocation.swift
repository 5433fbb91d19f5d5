import Foundation

/// Where the database file lives: `--db PATH`, else `$ESSH_DB`, else `$XDG_DATA_HOME/essh/essh.db`
/// (`~/.local/share/essh/essh.db`).
public enum DatabaseLocation {
    /// The path to use, given the `--db` option (nil when absent) and the environment.
    public static func resolve(option: String?, environment: [String: String]) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        if let option, !option.isEmpty { return PathExpansion.expandTilde(option, home: home) }
        if let env = environment["ESSH_DB"], !env.isEmpty { return PathExpansion.expandTilde(env, home: home) }
        var dataHome = environment["XDG_DATA_HOME"] ?? ""
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if !dataHome.hasPrefix("/") { dataHome = home + "/.local/share" }
        return dataHome + "/essh/essh.db"
    }
}
