import Foundation
import TUIKit

/// The vault in the interface: what its edge says (unlocked, used, how a login got its password), the idle lock on
/// the clock's ticks, the lock key, and the offers to remember or update a typed password.
extension Update {
    static func vaultEvent(_ state: inout AppState, _ event: VaultEvent) -> [Effect] {
        switch event {
        case .status(let exists, let unlocked):
            state.vault.exists = exists
            state.vault.unlocked = unlocked
            if unlocked { state.vault.lastUse = state.vault.lastUse ?? state.now }
            return []
        case .used(let at):
            state.vault.exists = true
            state.vault.unlocked = true
            state.vault.lastUse = max(state.vault.lastUse ?? at, at)
            return []
        case .login(let secret, let exists):
            state.vault.exists = exists
            return loginSecret(&state, secret, vaultExists: exists)
        case .remembered(let server):
            state.notice = "The password of \(TextSanitizer.line(server)) is in the vault now."
            return []
        case .failed(let sentence), .notice(let sentence):
            state.notice = TextSanitizer.line(sentence)
            let told = state.notice
            state.changeConnecting { $0.told = told }
            return []
        }
    }

    /// A login that just succeeded: the header says a vault password did it; a typed password of a saved server
    /// brings the offer to remember it (or to update the one the server refused), No being the default. Without a
    /// vault the offer is a line saying how to make one, once per run.
    static func loginSecret(_ state: inout AppState, _ secret: LoginSecret, vaultExists: Bool) -> [Effect] {
        guard state.session != nil else { return secret == .vault ? [] : [.vault(.forgetTyped)] }
        switch secret {
        case .vault:
            state.withSession { session, _ in session.loginFromVault = true }
            return []
        case .typed(let server), .typedAfterVaultRejected(let server):
            // A login given up (Esc) while another session opened is not this session's to offer.
            guard state.session?.target.name == server else { return [.vault(.forgetTyped)] }
            guard vaultExists else {
                if !state.vault.saidNoVault {
                    state.vault.saidNoVault = true
                    state.notice = "No vault yet: run essh vault init to keep passwords there."
                }
                return [.vault(.forgetTyped)]
            }
            let name = TextSanitizer.line(server)
            if case .typed = secret {
                state.dialog = DialogState(
                    purpose: .rememberPassword(server: server), title: "Remember this password in the vault?",
                    message: "The next login to \(name) can take it from the vault, unlocked with your vault "
                        + "passphrase.", buttons: ["No", "Yes"])
            } else {
                state.dialog = DialogState(
                    purpose: .updateVaultPassword(server: server), title: "Update the vault?",
                    message: "The server refused the vault's password for \(name); the one you typed worked. "
                        + "Update the vault with the password you typed?", buttons: ["No", "Yes"])
            }
            return []
        }
    }

    /// On each tick: the vault unlocked and unused for the idle lock's minutes is locked (its key dropped).
    static func idleLock(_ state: inout AppState) -> [Effect] {
        let minutes = state.vaultIdleLockMinutes
        guard state.vault.idleLockDue(at: state.now, minutes: minutes) else { return [] }
        state.vault.unlocked = false
        state.notice = "Vault locked: unused for \(minutes) min."
        return [.vault(.lock)]
    }

    /// The lock key: the vault's key is dropped at once.
    static func lockVault(_ state: inout AppState) -> [Effect] {
        if state.vault.exists == false {
            state.notice = "No vault yet: run essh vault init to keep passwords there."
            return []
        }
        guard state.vault.unlocked else {
            state.notice = "The vault is locked."
            return []
        }
        state.vault.unlocked = false
        state.notice = "Vault locked: the next stored secret asks for the passphrase."
        return [.vault(.lock)]
    }
}
