import Operations

import Foundation

/// What the interface knows of the vault (the secrets themselves never reach the core): whether one exists, whether
/// it is unlocked and when a secret was last taken from it (the idle lock's clock), and the idle lock's minutes.
struct VaultState: Sendable, Equatable {
    /// The setting naming the idle lock's minutes (`essh config vault.idle_lock 15`).
    static let idleLockSetting = "vault.idle_lock"
    static let defaultIdleLockMinutes = 15

    /// Whether a vault file exists (nil: not known yet).
    var exists: Bool?
    var unlocked = false
    /// When the vault was last unlocked or a secret taken from it.
    var lastUse: Date?
    /// The idle lock's minutes as stored at the last load (`AppState.vaultIdleLockMinutes` is what counts).
    var idleLockMinutes = VaultState.defaultIdleLockMinutes
    /// "No vault yet" was said once this run: a login with a typed password does not say it again.
    var saidNoVault = false

    /// The idle lock's minutes from the stored settings: Operations' typed table reads `vault.idle_lock` (1 to
    /// 1440; anything else is the default, so the vault always locks in the end).
    static func idleLockMinutes(_ stored: [String: String]) -> Int {
        Settings(stored: stored).vaultIdleLock
    }

    /// Whether the key should be dropped now: unlocked, an idle lock of `minutes` set, and that long since the last
    /// use.
    func idleLockDue(at now: Date, minutes: Int) -> Bool {
        guard unlocked, minutes > 0, let lastUse else { return false }
        return now.timeIntervalSince(lastUse) >= Double(minutes) * 60
    }
}
