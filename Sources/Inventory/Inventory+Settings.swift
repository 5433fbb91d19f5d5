import GRDB

/// Application settings as text values (typed accessors live with their users).
extension Inventory {
    /// The value of setting `key`, or nil when unset.
    public func setting(_ key: String) throws(InventoryError) -> String? {
        try read { db in try Setting.fetchOne(db, key: key)?.value }
    }

    /// Sets (or, with nil, removes) setting `key`.
    public func setSetting(_ key: String, to value: String?) throws(InventoryError) {
        try write { db in
            if let value {
                try Setting(key: key, value: value).save(db)
            } else {
                _ = try Setting.deleteOne(db, key: key)
            }
        }
    }

    /// Every setting, by key.
    public func allSettings() throws(InventoryError) -> [String: String] {
        try read { db in Dictionary(uniqueKeysWithValues: try Setting.fetchAll(db).map { ($0.key, $0.value) }) }
    }
}
