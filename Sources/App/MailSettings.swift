import AppCore
import Inventory
import Mail

/// The mail settings (`mail.recipient`, `mail.sendmail`, `mail.from`, `mail.max_inline`), read the same way by the
/// terminal interface and by `essh mail` / `essh exec --mail`, so both send alike.
public struct MailSettings: Sendable, Equatable {
    /// Default recipients ("" for none).
    public var recipient: String
    /// The sendmail program.
    public var sendmailPath: String
    /// The From address ("" for user@hostname).
    public var from: String
    /// Bytes shown inline at most.
    public var maxInline: Int

    init(_ settings: AppSettings) {
        recipient = settings.mailRecipient
        sendmailPath = settings.sendmailPath
        from = settings.mailFrom
        maxInline = settings.mailMaxInline
    }

    /// The settings among stored key-value pairs (values that do not parse keep their defaults).
    public init(stored: [String: String]) {
        self.init(AppSettings(stored: stored))
    }

    /// The settings stored in `inventory`.
    public init(inventory: Inventory) throws(InventoryError) {
        self.init(stored: try inventory.allSettings())
    }

    /// The From address to use.
    public var sender: String { from.isEmpty ? LocalIdentity.defaultFrom : from }
}
