import Basics
import Foundation

/// Where the database file lives: `--db PATH`, else `$ESSH_DB`, else `$XDG_DATA_HOME/essh/essh.db`
/// (`~/.local/share/essh/essh.db`).
public enum DatabaseLocation {
    /// The path to use, given the `--db` option (nil when absent) and the environment.
    public static func resolve(option: String?, environment: [String: String]) -> String {
        let home = XDGDirectories.home(environment: environment)
        if let option, !option.isEmpty { return PathExpansion.expandTilde(option, home: home) }
        if let env = environment["ESSH_DB"], !env.isEmpty { return PathExpansion.expandTilde(env, home: home) }
        // The vault (Vault's VaultStore) lives in the same folder, by the same rule.
        return XDGDirectories.esshData(environment: environment) + "/essh.db"
    }
}
