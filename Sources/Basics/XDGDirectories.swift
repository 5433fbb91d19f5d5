import Foundation

/// Where eSSH's files go under the XDG Base Directory rules, in one place: the database and the vault share the data
/// folder, the vault's unlock agent the runtime folder. A relative value is invalid under the specification and
/// ignored, as is an empty one.
public enum XDGDirectories {
    /// `$HOME`, else the password database's home.
    public static func home(environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public static func dataHome(environment: [String: String]) -> String {
        absolute(environment["XDG_DATA_HOME"]) ?? home(environment: environment) + "/.local/share"
    }

    /// eSSH's data folder: `dataHome/essh`.
    public static func esshData(environment: [String: String]) -> String {
        dataHome(environment: environment) + "/essh"
    }

    /// `$XDG_RUNTIME_DIR` (per login, on a tmpfs, removed at logout), nil when unset or relative.
    public static func runtimeDirectory(environment: [String: String]) -> String? {
        absolute(environment["XDG_RUNTIME_DIR"])
    }

    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}
