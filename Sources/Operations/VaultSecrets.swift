import Synchronization
import Vault

/// The `vault` credential source: saved servers' secrets from the vault, by each server's stable id (`Server.uid`).
/// The vault is unlocked at most once per `VaultSecrets` — one command line run, one fleet run — the first time a
/// secret is asked for, by `unlock` (the front end's way: the unlock agent, the passphrase command, the terminal or
/// the interface's question); a failed unlock is remembered too, so a fleet of vault servers asks once and then
/// reports every one of them with the same sentence. `drop()` forgets the document (its `Secret`s wipe their bytes).
public final class VaultSecrets: SecretProvider {
    private let unlock: @Sendable () throws(VaultError) -> VaultDocument
    private let opened = Mutex<Result<VaultDocument, VaultError>?>(nil)

    public init(unlock: @escaping @Sendable () throws(VaultError) -> VaultDocument) {
        self.unlock = unlock
    }

    /// Forgets the unlocked document.
    public func drop() {
        opened.withLock { $0 = nil }
    }

    /// The entry of server `uid`, unlocking first. The lock is held while unlocking: a second thread of a fleet run
    /// waits for the first one's answer instead of asking again.
    private func entry(_ uid: String) throws(CredentialUnavailable) -> VaultEntry? {
        let result = opened.withLock { opened in
            if let opened { return opened }
            let result: Result<VaultDocument, VaultError>
            do throws(VaultError) {
                result = .success(try unlock())
            } catch {
                result = .failure(error)
            }
            opened = result
            return result
        }
        switch result {
        case .success(let document): return document.entries[uid]
        case .failure(let error): throw CredentialUnavailable("The vault could not be opened: \(error.message)")
        }
    }

    private func secret(_ uid: String, _ kind: VaultSecretKind) throws(CredentialUnavailable) -> String {
        guard let secret = try entry(uid)?.secret(kind) else {
            throw CredentialUnavailable("The vault holds no \(kind) for this server (essh vault set NAME …).")
        }
        return secret.text
    }

    public func password(forServer uid: String) throws(CredentialUnavailable) -> String {
        try secret(uid, .password)
    }

    public func passphrase(forServer uid: String, keyFile: String) throws(CredentialUnavailable) -> String {
        try secret(uid, .keyPassphrase(keyFile))
    }

    /// Each prompt's stored answer; a prompt without one gets the stored password (a PAM "Password:" prompt).
    public func answers(forServer uid: String, prompts: [String]) throws(CredentialUnavailable) -> [String] {
        guard let entry = try entry(uid) else {
            throw CredentialUnavailable("The vault holds nothing for this server (essh vault set NAME --password).")
        }
        var answers: [String] = []
        for prompt in prompts {
            guard let secret = entry.secret(.answer(prompt)) ?? entry.password else {
                throw CredentialUnavailable("The vault holds no answer to \"\(prompt)\" for this server.")
            }
            answers.append(secret.text)
        }
        return answers
    }
}
