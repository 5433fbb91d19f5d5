import Foundation
import Synchronization
import Vault

/// The real `InterfaceVault`: the vault file through `Vault.VaultStore` (`$XDG_DATA_HOME/essh/vault.age`, as the
/// command line), its key (`AgeKey`, one scrypt run per unlock) kept in memory while unlocked and dropped on `lock`.
/// When `essh vault unlock`'s agent is running and its key still opens the vault, that key is taken instead of
/// asking. From the first key held on, the process is undumpable (`ProcessGuard.noCoreDumps`: no core file, no
/// ptrace by the same user) — and stays so after a lock, since copies of secrets the allocator left behind cannot be
/// found to be wiped.
final class StoreVault: InterfaceVault {
    private let store: VaultStore
    private let socketPath: String?
    private let key = Mutex<AgeKey?>(nil)
    private let guardProcess: @Sendable () -> Void

    /// The vault at `store`'s path; `socketPath` is the unlock agent's socket (nil: no agent is asked).
    /// `guardProcess` runs before a key is first kept (tests pass a no-op: a test process stays dumpable).
    init(store: VaultStore, socketPath: String?,
         guardProcess: @escaping @Sendable () -> Void = { ProcessGuard.noCoreDumps() }) {
        self.store = store
        self.socketPath = socketPath
        self.guardProcess = guardProcess
    }

    /// The vault and agent the command line uses, from the environment.
    convenience init(environment: [String: String]) {
        self.init(store: VaultStore(path: VaultStore.defaultPath(environment: environment)),
                  socketPath: VaultAgent.socketPath(environment: environment))
    }

    var isUnlocked: Bool { heldKey() != nil }

    func exists() -> Bool { store.exists }

    func unlock(passphrase: [UInt8]) throws(VaultProblem) {
        let opened: (key: AgeKey, document: VaultDocument)
        do {
            opened = try store.unlock(passphrase: passphrase)
        } catch {
            throw Self.problem(error)
        }
        keep(opened.key)
    }

    func lock() {
        key.withLock { $0 = nil }
    }

    func secret(serverUID: String, kind: VaultSecretKind) throws(VaultProblem) -> [UInt8]? {
        let document = try read()
        guard let entry = document.entries[serverUID] else { return nil }
        switch kind {
        case .password: return entry.password?.copyBytes()
        case .passphrase(let keyFile): return entry.keyPassphrases[keyFile]?.copyBytes()
        case .answer(let prompt): return entry.answers[prompt]?.copyBytes()
        }
    }

    func remember(password: [UInt8], serverUID: String, name: String) throws(VaultProblem) {
        guard let held = heldKey() else { throw VaultProblem(.locked, "The vault is locked.") }
        var bytes = password
        let secret = Secret(taking: &bytes)
        do {
            _ = try store.update(with: held) { document throws(VaultError) in
                document.set(.password, secret, id: serverUID, name: name)
            }
        } catch {
            throw dropIfStale(error)
        }
    }

    // MARK: the key

    /// The key held, else the agent's when one answers with a key that still opens the vault (then held).
    private func heldKey() -> AgeKey? {
        if let held = key.withLock({ $0 }) { return held }
        guard let socketPath, store.exists,
              let agents = try? VaultAgent.key(socketPath: socketPath, maxWorkFactor: store.maxReadWorkFactor),
              (try? store.read(with: agents)) != nil else { return nil }
        keep(agents)
        return agents
    }

    private func keep(_ newKey: AgeKey) {
        guardProcess()
        key.withLock { $0 = newKey }
    }

    private func read() throws(VaultProblem) -> VaultDocument {
        guard let held = heldKey() else { throw VaultProblem(.locked, "The vault is locked.") }
        do {
            return try store.read(with: held)
        } catch {
            throw dropIfStale(error)
        }
    }

    /// `error` as a problem; when the vault's passphrase was changed meanwhile (`essh vault passwd`), the key held
    /// no longer opens it and is dropped, so the next use asks the new passphrase.
    private func dropIfStale(_ error: VaultError) -> VaultProblem {
        if case .cannotOpen(_, .keyChanged) = error {
            lock()
            return VaultProblem(.locked, "The vault's passphrase was changed since it was unlocked: it is locked now.")
        }
        return Self.problem(error)
    }

    /// The store's error as the interface's kinds: a wrong passphrase (asking again may help), no vault, or
    /// anything else, each with the store's sentence.
    static func problem(_ error: VaultError) -> VaultProblem {
        switch error {
        case .cannotOpen(_, .wrongPassphrase): return VaultProblem(.wrongPassphrase, "Wrong passphrase.")
        case .missing: return VaultProblem(.noVault, error.message)
        default: return VaultProblem(.failed, error.message)
        }
    }
}
