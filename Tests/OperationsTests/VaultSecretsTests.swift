import Foundation
import Operations
import Synchronization
import Testing
import Vault

/// The `vault` credential source's lookups and its one unlock per run, with the unlock as a closure (the front ends
/// give the agent, the passphrase command, the terminal or the interface's question).
@Suite struct VaultSecretsTests {
    private static func document() -> VaultDocument {
        var document = VaultDocument()
        document.set(.password, Secret("pw-db1"), id: "uid-db1", name: "db1")
        document.set(.keyPassphrase("/k/id_ed25519"), Secret("pp-db1"), id: "uid-db1", name: "db1")
        document.set(.answer("Verification code: "), Secret("123456"), id: "uid-db1", name: "db1")
        return document
    }

    @Test func eachKindIsLookedUpByTheServersIdAndAMissingOneIsSaid() throws {
        let secrets = VaultSecrets { Self.document() }
        #expect(try secrets.password(forServer: "uid-db1") == "pw-db1")
        #expect(try secrets.passphrase(forServer: "uid-db1", keyFile: "/k/id_ed25519") == "pp-db1")
        // A prompt with its own answer gets it; another hidden prompt gets the password (PAM's "Password:").
        #expect(try secrets.answers(forServer: "uid-db1", prompts: ["Verification code: ", "Password: "])
                == ["123456", "pw-db1"])
        #expect(throws: CredentialUnavailable("The vault holds no password for this server (essh vault set NAME …).")) {
            try secrets.password(forServer: "uid-other")
        }
        #expect(throws: CredentialUnavailable(
            "The vault holds no passphrase /k/other for this server (essh vault set NAME …).")) {
            try secrets.passphrase(forServer: "uid-db1", keyFile: "/k/other")
        }
    }

    @Test func manyThreadsUnlockOnceAndAFailedUnlockIsNotAskedAgain() async throws {
        let unlocks = Mutex(0)
        let secrets = VaultSecrets {
            unlocks.withLock { $0 += 1 }
            usleep(100_000)
            return Self.document()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { #expect((try? secrets.password(forServer: "uid-db1")) == "pw-db1") } }
        }
        #expect(unlocks.withLock { $0 } == 1)

        let failing = Mutex(0)
        let refused = VaultSecrets { () throws(VaultError) -> VaultDocument in
            failing.withLock { $0 += 1 }
            throw .noPassphrase("No vault passphrase was given; nothing was changed.")
        }
        for _ in 0..<3 {
            #expect(throws: CredentialUnavailable(
                "The vault could not be opened: No vault passphrase was given; nothing was changed.")) {
                try refused.password(forServer: "uid-db1")
            }
        }
        #expect(failing.withLock { $0 } == 1, "a fleet of vault servers asks once")
        refused.drop()
        _ = try? refused.password(forServer: "uid-db1")
        #expect(failing.withLock { $0 } == 2, "after drop the next use unlocks again")
    }
}
