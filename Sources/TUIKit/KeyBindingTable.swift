/// A screen's key table: the one source for dispatch, the key bar and the help screen.
public struct KeyBindingTable<Action: Sendable>: Sendable {
    /// The bindings in display order.
    public var bindings: [KeyBinding<Action>]

    /// A table.
    public init(_ bindings: [KeyBinding<Action>]) { self.bindings = bindings }

    /// The action bound to `key` (the first binding that lists it), or nil.
    public func action(for key: Key) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// What the key bar shows: (key text, label) for bindings that have a label, in order.
    public var keyBarItems: [(key: String, label: String)] {
        bindings.compactMap { binding in binding.label.map { (binding.keys[0].description, $0) } }
    }

    /// What the help screen shows: (keys text, description) for every binding.
    public var helpItems: [(keys: String, description: String)] {
        bindings.map { ($0.keysText, $0.description) }
    }

    /// Keys listed by more than one binding (a table mistake; tests assert this is empty).
    public var conflictingKeys: [Key] {
        var seen: Set<Key> = []
        var conflicts: [Key] = []
        for binding in bindings {
            for key in binding.keys where !seen.insert(key).inserted { conflicts.append(key) }
        }
        return conflicts
    }
}
