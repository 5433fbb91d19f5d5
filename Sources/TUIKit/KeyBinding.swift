/// One entry of a screen's key table: the keys, what they do, and how the key bar and the help screen name it.
public struct KeyBinding<Action: Sendable>: Sendable {
    /// Keys that trigger the action (the first is the one shown).
    public var keys: [Key]
    /// What the screen's update function receives.
    public var action: Action
    /// Short label for the key bar; nil keeps the binding out of the bar (it still appears in help).
    public var label: String?
    /// One line for the help screen.
    public var description: String

    /// A binding.
    public init(_ keys: [Key], _ action: Action, label: String? = nil, description: String) {
        self.keys = keys
        self.action = action
        self.label = label
        self.description = description
    }

    /// The keys as shown to the user: `F10/^D`.
    public var keysText: String { keys.map(\.description).joined(separator: "/") }
}
