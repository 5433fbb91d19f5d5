import GRDB

/// One key-value setting of the application (the TUI's preferences): one row of the `setting` table.
public struct Setting: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    /// The setting's name, such as `ui.theme`.
    public var key: String
    /// Its value as text.
    public var value: String

    /// The table name.
    public static let databaseTableName = "setting"

    /// A setting.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
