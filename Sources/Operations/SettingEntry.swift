/// One setting as a front end that names settings by key shows it (`essh config list`): the table's key, label and
/// hint, the value in force, the default, and whether a value is stored. Built from `Settings.fields` only.
public struct SettingEntry: Sendable, Equatable {
    /// The key (`fleet.timeout`).
    public var key: String
    /// The label on the Settings screen.
    public var label: String
    /// What the value may be.
    public var hint: String
    /// The value in force, as text (the default when nothing, or nothing readable, is stored).
    public var value: String
    /// The default, as text.
    public var defaultValue: String
    /// The text stored for the key, if any (also when it does not parse and the default is in force).
    public var stored: String?
}

/// Why a setting named by key cannot be read or set.
public struct SettingProblem: Error, Sendable, Equatable {
    /// What is wrong.
    public enum Kind: String, Sendable {
        /// No setting has this key.
        case unknownKey = "unknown-key"
        /// The value is outside the setting's bounds or format.
        case invalidValue = "invalid-value"
    }

    /// What is wrong.
    public var kind: Kind
    /// The key as given.
    public var key: String
    /// The sentence for the person: what is wrong and what would be accepted.
    public var message: String
}

extension Settings {
    /// Every setting's key, in the table's order.
    public static var keys: [String] { fields.map(\.key) }

    /// Every setting with its value in force under `stored` (the database's key-value pairs), in the table's order.
    public static func entries(stored: [String: String]) -> [SettingEntry] {
        let current = Settings(stored: stored)
        let defaults = Settings()
        return fields.map {
            SettingEntry(key: $0.key, label: $0.label, hint: $0.hint, value: $0.format(current),
                         defaultValue: $0.format(defaults), stored: stored[$0.key])
        }
    }

    /// The field for `key`, or the problem naming the keys there are (and the likeliest meant).
    public static func requireField(_ key: String) throws(SettingProblem) -> SettingField {
        if let field = field(key) { return field }
        let close = suggestions(for: key)
        let hint = close.isEmpty ? "" : " Did you mean \(close.joined(separator: " or "))?"
        throw SettingProblem(kind: .unknownKey, key: key, message: """
            There is no setting '\(key)'.\(hint) The settings are: \(keys.joined(separator: ", ")).
            """)
    }

    /// The text to store for `key` when a person types `text`: checked exactly as the Settings screen checks it
    /// (same parse, same bounds) and written as that screen shows it (`yes` → `on`, ` 30 ` → `30`).
    public static func storedText(_ text: String, for key: String) throws(SettingProblem) -> String {
        let field = try requireField(key)
        var settings = Settings()
        if let problem = field.apply(&settings, text) {
            throw SettingProblem(kind: .invalidValue, key: key, message: """
                \(key) cannot be '\(text)': \(problem)
                """)
        }
        return field.format(settings)
    }

    /// Keys a mistyped `key` probably meant: those ending in it (`timeout` → `check.timeout`, `fleet.timeout`), or
    /// within two edits of it (`fleet.paralel`).
    static func suggestions(for key: String) -> [String] {
        let typed = key.lowercased()
        guard !typed.isEmpty else { return [] }
        let bySuffix = keys.filter { $0.hasSuffix("." + typed) || $0.hasSuffix("_" + typed) }
        if !bySuffix.isEmpty { return bySuffix }
        return keys.filter { editDistance(Array($0.utf8), Array(typed.utf8)) <= 2 }
    }

    /// Levenshtein distance (keys are short ASCII words).
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
