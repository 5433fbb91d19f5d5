import Foundation
import Inventory
import SSH

/// The one policy for remembering which key logged in to a saved server and offering it first next time (issue 17
/// §2), for the command line, the interface and fleet runs alike: a server whose agent holds many keys and that has
/// a small `MaxAuthTries` then lets the person in at the first offer.
public enum IdentityMemory {
    /// What a saved server's `lastIdentity` asks to be offered first: nil when nothing is stored, when the text no
    /// longer parses (`PreferredIdentity(storedText:)`), or when it names a key file that no longer exists — an
    /// identity that is gone is forgotten quietly, never an error.
    public static func preferred(_ stored: String?,
                                 fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> PreferredIdentity?
    {
        guard let stored, let identity = PreferredIdentity(storedText: stored) else { return nil }
        if case .keyFile(let path) = identity, !fileExists(path) { return nil }
        return identity
    }

    /// The text to store after a login as `identity` on a server that has `stored`: the key (file or agent key)
    /// when it differs from what is stored; nil when nothing is to be written (a password, keyboard-interactive or
    /// `none` login, or the same key again).
    public static func change(after identity: LoginIdentity, stored: String?) -> String? {
        guard let text = identity.preferred?.storedText, text != stored else { return nil }
        return text
    }

    /// After a login as `identity` to `profile`: records the key on the saved server when it differs from the one
    /// stored (`change`). No-op for a destination that is no saved server, a profile without a row id, or when
    /// `inventory` is nil. Returns the text written, nil when nothing was. Throws when the database cannot be
    /// written — the caller decides whether that matters (a login never fails for it).
    @discardableResult
    public static func record(_ identity: LoginIdentity, for profile: ConnectionProfile,
                              in inventory: Inventory?) throws(InventoryError) -> String? {
        guard profile.isSaved, let serverID = profile.serverID, let inventory,
              let text = change(after: identity, stored: profile.lastIdentity) else { return nil }
        try inventory.recordIdentity(serverID: serverID, text)
        return text
    }

    /// `record` as a fleet target's `onLogin` (called on a worker thread; a database that cannot be written is
    /// ignored: a run never fails for it); nil for a destination that is no saved server or without a database.
    public static func recorder(for profile: ConnectionProfile, in inventory: Inventory?)
        -> (@Sendable (LoginIdentity) -> Void)?
    {
        guard profile.isSaved, profile.serverID != nil, let inventory else { return nil }
        return { identity in _ = try? record(identity, for: profile, in: inventory) }
    }
}
