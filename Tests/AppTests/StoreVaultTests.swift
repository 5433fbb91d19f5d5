import Foundation
import Synchronization
import Testing
import TestSupport
import Vault
@testable import App

/// The interface's vault on real vault files (work factor 2^10, so a debug build unlocks in milliseconds): the
/// store's errors as the interface's kinds, the key kept until `lock`, a remembered password readable by a fresh
/// unlock, a passphrase changed elsewhere dropping the key, and the process guard run before a key is kept.
@Suite("StoreVault")
struct StoreVaultTests {
    static let passphrase = Array("correct horse".utf8)

    /// A vault at `dir`/vault.age holding `password` for `uid` (nil: an empty vault).
    static func makeVault(in dir: TempDir, uid: String = "uid-web1", password: String? = "s3cret") throws -> VaultStore {
        let store = VaultStore(path: dir.file("data/vault.age"))
        let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
        try store.create(key: key)
        if let password {
            try store.update(with: key) { document throws(VaultError) in
                document.set(.password, Secret(password), id: uid, name: "web1")
            }
        }
        return store
    }

    final class Guards: Sendable {
        let count = Mutex(0)
        var calls: Int { count.withLock { $0 } }
        func call() { count.withLock { $0 += 1 } }
    }

    static func vault(_ store: VaultStore, guards: Guards = Guards()) -> StoreVault {
        StoreVault(store: store, socketPath: nil, guardProcess: { guards.call() })
    }

    @Test func aWrongPassphraseNoVaultAndADamagedFileAreTheirOwnKinds() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = try Self.makeVault(in: dir)
        let vault = Self.vault(store)
        #expect(throws: VaultProblem(.wrongPassphrase, "Wrong passphrase.")) {
            try vault.unlock(passphrase: Array("battery staple".utf8))
        }
        #expect(!vault.isUnlocked)

        let missing = Self.vault(VaultStore(path: dir.file("nowhere/vault.age")))
        #expect(!missing.exists())
        do {
            try missing.unlock(passphrase: Self.passphrase)
            Issue.record("a missing vault unlocked")
        } catch {
            #expect(error.kind == .noVault)
            #expect(error.sentence.contains("essh vault init"), "\(error.sentence)")
        }

        let damaged = VaultStore(path: dir.file("damaged.age"))
        FileManager.default.createFile(atPath: damaged.path, contents: Data(), attributes: [.posixPermissions: 0o600])
        do {
            try Self.vault(damaged).unlock(passphrase: Self.passphrase)
            Issue.record("an empty vault unlocked")
        } catch {
            #expect(error.kind == .failed)
            #expect(error.sentence.contains("left as it is"), "\(error.sentence)")
        }
    }

    @Test func theKeyIsKeptUntilLockAndARememberedPasswordOpensInAFreshUnlock() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = try Self.makeVault(in: dir)
        let guards = Guards()
        let vault = Self.vault(store, guards: guards)
        #expect(vault.exists() && !vault.isUnlocked)
        #expect(throws: VaultProblem(.locked, "The vault is locked.")) {
            _ = try vault.secret(serverUID: "uid-web1", kind: .password)
        }
        #expect(guards.calls == 0, "no key held: the process is left as it is")
        try vault.unlock(passphrase: Self.passphrase)
        #expect(vault.isUnlocked)
        #expect(guards.calls == 1, "made undumpable before the key is kept")
        #expect(try vault.secret(serverUID: "uid-web1", kind: .password) == Array("s3cret".utf8))
        #expect(try vault.secret(serverUID: "uid-db", kind: .password) == nil)
        #expect(try vault.secret(serverUID: "uid-web1", kind: .passphrase(keyFile: "/k")) == nil)

        try vault.remember(password: Array("db-pass".utf8), serverUID: "uid-db", name: "db")
        vault.lock()
        #expect(!vault.isUnlocked)
        #expect(throws: VaultProblem(.locked, "The vault is locked.")) {
            try vault.remember(password: Array("x".utf8), serverUID: "uid-db", name: "db")
        }

        // What another process (the command line) reads.
        let (_, document) = try store.unlock(passphrase: Self.passphrase)
        #expect(document.entries["uid-db"]?.name == "db")
        #expect(document.entries["uid-db"]?.password?.text == "db-pass")
        #expect(document.entries["uid-web1"]?.password?.text == "s3cret", "the other entry is kept")
    }

    @Test func aPassphraseChangedElsewhereLocksTheInterfacesKey() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = try Self.makeVault(in: dir)
        let vault = Self.vault(store)
        try vault.unlock(passphrase: Self.passphrase)
        // `essh vault passwd` in another terminal.
        let (old, _) = try store.unlock(passphrase: Self.passphrase)
        try store.changeKey(from: old, to: try AgeFile.makeKey(passphrase: Array("new one".utf8), workFactor: 10))
        do {
            _ = try vault.secret(serverUID: "uid-web1", kind: .password)
            Issue.record("a stale key read the vault")
        } catch {
            #expect(error.kind == .locked)
        }
        #expect(!vault.isUnlocked, "the stale key is dropped: the next use asks the new passphrase")
        try vault.unlock(passphrase: Array("new one".utf8))
        #expect(try vault.secret(serverUID: "uid-web1", kind: .password) == Array("s3cret".utf8))
    }
}
