import Foundation
import Testing
@testable import Vault

/// VaultStore on real files in a temporary folder (work factor 2^10 keeps scrypt fast). Processes writing at once, a
/// kill during a write and a full disk are in EsshCLITests' VaultCommandTests (they need the binary and a tmpfs).
@Suite struct VaultStoreTests {
    let passphrase = Array("store passphrase".utf8)

    func withStore(_ body: (VaultStore, String) throws -> Void) throws {
        var template = Array((NSTemporaryDirectory() + "/essh-vault-XXXXXX").utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(VaultStore(path: directory + "/data/essh/vault.age"), directory)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func createUnlockUpdateRead() throws {
        try withStore { store, _ in
            #expect(!store.exists)
            #expect(throws: VaultError.missing(path: store.path)) { try store.unlock(passphrase: passphrase) }
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            #expect(mode(store.path) == 0o600 && mode(store.folder) == 0o700)
            #expect(throws: VaultError.exists(path: store.path)) { try store.create(key: key) }
            try store.update(with: key) { $0.set(.password, Secret("s3cret"), id: "id-1", name: "db1") }
            let (unlocked, document) = try store.unlock(passphrase: passphrase)
            #expect(document.entries["id-1"]?.password?.text == "s3cret")
            #expect(try store.read(with: unlocked) == document)
            #expect(store.storedWorkFactor() == 10)
            #expect(files(in: store.folder) == ["vault.age", "vault.age.lock"], "no temporary file left")
            #expect(mode(store.path) == 0o600)
        }
    }

    @Test func aWideFolderIsMadePrivate() throws {
        try withStore { store, _ in
            try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true)
            chmod(store.folder, 0o755)
            try store.create(key: try AgeFile.makeKey(passphrase: passphrase, workFactor: 10))
            #expect(mode(store.folder) == 0o700)
        }
    }

    @Test func writesReReadTheFileUnderTheLock() throws {
        try withStore { store, _ in
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            // Two holders of the key, as two processes that unlocked before either wrote.
            let first = try store.unlock(passphrase: passphrase).key
            let second = try store.unlock(passphrase: passphrase).key
            try store.update(with: first) { $0.set(.password, Secret("one"), id: "a", name: "a") }
            try store.update(with: second) { $0.set(.password, Secret("two"), id: "b", name: "b") }
            let document = try store.read(with: key)
            #expect(Set(document.entries.keys) == ["a", "b"])
        }
    }

    @Test func aChangeThatThrowsWritesNothing() throws {
        try withStore { store, _ in
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            let before = try bytes(store.path)
            #expect(throws: VaultError.noPassphrase("no")) {
                try store.update(with: key) { (_: inout VaultDocument) throws(VaultError) in throw .noPassphrase("no") }
            }
            #expect(try bytes(store.path) == before)
        }
    }

    /// Every damaged file is refused with a sentence, by unlock and by update, and left byte for byte.
    @Test func damagedFilesAreRefusedAndLeftAsTheyAre() throws {
        try withStore { store, _ in
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            try store.update(with: key) { $0.set(.password, Secret("s3cret"), id: "a", name: "a") }
            let good = try bytes(store.path)
            var flipped = good
            flipped[flipped.count - 5] ^= 0x10
            let overLimit = try AgeFile.makeKey(passphrase: passphrase, workFactor: 12).seal(VaultDocument().encoded())
            let cases: [(String, [UInt8])] = [
                ("zero-length", []), ("truncated", Array(good.dropLast(7))), ("bit-flipped", flipped),
                ("header cut", Array(good.prefix(30))), ("over the limit", overLimit),
            ]
            let limited = VaultStore(path: store.path, maxReadWorkFactor: 11)
            for (what, damaged) in cases {
                try Data(damaged).write(to: URL(fileURLWithPath: store.path))
                do {
                    _ = try limited.unlock(passphrase: passphrase)
                    Issue.record("\(what): opened")
                } catch let error as VaultError {
                    #expect(error.message.contains(store.path) && error.message.contains("left as it is"), "\(what): \(error.message)")
                }
                #expect(throws: VaultError.self, "\(what)") {
                    try limited.update(with: key) { $0.set(.password, Secret("x"), id: "b", name: "b") }
                }
                #expect(try bytes(store.path) == damaged, "\(what): not rewritten")
            }
            try Data(good).write(to: URL(fileURLWithPath: store.path))
            #expect(throws: VaultError.cannotOpen(path: store.path, .wrongPassphrase)) {
                try store.unlock(passphrase: Array("wrong".utf8))
            }
            #expect(try bytes(store.path) == good)
            #expect(throws: VaultError.cannotOpen(path: store.path, .workFactorTooHigh(12, limit: 11))) {
                try Data(overLimit).write(to: URL(fileURLWithPath: store.path))
                _ = try limited.unlock(passphrase: passphrase)
            }
        }
    }

    @Test func aHugeFileIsRefusedWithoutReadingItWhole() throws {
        try withStore { store, _ in
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            #expect(truncate(store.path, off_t(VaultStore.maxFileSize + 1)) == 0)  // sparse: no disk used
            #expect(throws: VaultError.tooLarge(path: store.path, limit: VaultStore.maxFileSize)) {
                try store.update(with: key) { $0.set(.password, Secret("x"), id: "a", name: "a") }
            }
            var info = stat()
            stat(store.path, &info)
            #expect(Int(info.st_size) == VaultStore.maxFileSize + 1, "left as it is")
        }
    }

    @Test func aNewPassphraseIsANewKeyAndTheOldOneStopsWorking() throws {
        try withStore { store, _ in
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            try store.update(with: key) { $0.set(.password, Secret("kept"), id: "a", name: "a") }
            let newKey = try AgeFile.makeKey(passphrase: Array("new one".utf8), workFactor: 11)
            try store.changeKey(from: key, to: newKey)
            #expect(throws: VaultError.cannotOpen(path: store.path, .keyChanged)) { try store.read(with: key) }
            #expect(throws: VaultError.cannotOpen(path: store.path, .wrongPassphrase)) {
                try store.unlock(passphrase: passphrase)
            }
            let (_, document) = try store.unlock(passphrase: Array("new one".utf8))
            #expect(document.entries["a"]?.password?.text == "kept")
            #expect(store.storedWorkFactor() == 11)
        }
    }

    @Test func exportWritesAPrivateStandaloneCopy() throws {
        try withStore { store, directory in
            let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
            try store.create(key: key)
            try store.update(with: key) { $0.set(.password, Secret("s3cret"), id: "a", name: "a") }
            let copy = directory + "/copy.age"
            try store.exportCopy(with: key, to: copy)
            #expect(mode(copy) == 0o600)
            let plaintext = try AgeFile.decrypt(try bytes(copy), passphrase: passphrase, maxWorkFactor: 18)
            #expect(try VaultDocument.decode(plaintext).entries["a"]?.password?.text == "s3cret")
            let before = try bytes(copy)
            #expect(throws: VaultError.self) { try store.exportCopy(with: key, to: copy) }
            #expect(try bytes(copy) == before, "an existing file is not overwritten")
        }
    }

    @Test func theAgentSocketIsInTheRuntimeFolderElseAPerUserFolderInTmp() {
        #expect(VaultAgent.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == "/run/user/7/essh/vault.sock")
        #expect(VaultAgent.socketPath(environment: [:]) == "/tmp/essh-\(getuid())/vault.sock")
        #expect(VaultAgent.socketPath(environment: ["XDG_RUNTIME_DIR": "relative"]) == "/tmp/essh-\(getuid())/vault.sock")
    }

    @Test func defaultPathFollowsTheDatabaseRule() {
        #expect(VaultStore.defaultPath(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d"]) == "/d/essh/vault.age")
        #expect(VaultStore.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/essh/vault.age")
        #expect(VaultStore.defaultPath(environment: ["HOME": "/h", "XDG_DATA_HOME": "rel"]) == "/h/.local/share/essh/vault.age")
    }
}
