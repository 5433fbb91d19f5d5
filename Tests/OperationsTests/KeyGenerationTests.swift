import Foundation
import Operations
import Testing
import TestSupport

/// `KeyGeneration` with Debian's ssh-keygen behind a wrapper that records the argv and environment it was given,
/// and a shell askpass that answers from its stdin as essh's askpass mode does.
@Suite struct KeyGenerationTests {
    let passphrase = "a long 'quoted' $passphrase"

    /// Writes the wrapper (`keygen`), recording into `argv` and `env`, and the askpass (`askpass`; `failing`: it
    /// answers nothing and fails, as a broken helper would).
    func helpers(_ dir: TempDir, failing: Bool = false) throws -> (keygen: String, askpass: String) {
        try dir.writeScript("""
            #!/bin/sh
            printf '%s\\n' "$@" > \(dir.file("argv"))
            env > \(dir.file("env"))
            exec /usr/bin/ssh-keygen "$@"
            """, to: dir.file("keygen"))
        try dir.writeScript(failing ? "#!/bin/sh\nexit 1\n" : "#!/bin/sh\nIFS= read -r line; printf '%s\\n' \"$line\"\n",
                            to: dir.file("askpass"))
        return (dir.file("keygen"), dir.file("askpass"))
    }

    @Test func thePassphraseReachesSSHKeygenThroughThePipeOnly() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (keygen, askpass) = try helpers(dir)
        let generation = KeyGeneration(type: .ed25519, file: dir.file("id"), comment: "c")
        let key = try generation.generate(passphrase: Array(passphrase.utf8), askpass: askpass, keygen: keygen)
        #expect(key.type == "ssh-ed25519" && key.comment == "c")
        let argv = try String(contentsOfFile: dir.file("argv"), encoding: .utf8)
        let env = try String(contentsOfFile: dir.file("env"), encoding: .utf8)
        #expect(!argv.contains("passphrase") && !env.contains("passphrase"))
        #expect(env.contains("SSH_ASKPASS_REQUIRE=force") && env.contains("SSH_ASKPASS=\(askpass)"))
        let derived = try Binary.run("/usr/bin/ssh-keygen", ["-y", "-P", passphrase, "-f", dir.file("id")])
        #expect(derived.status == 0 && derived.out.hasPrefix(key.type + " " + key.base64), "\(derived.err)")
    }

    @Test func aKeyThatCameOutWithoutItsPassphraseIsRemoved() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (keygen, askpass) = try helpers(dir, failing: true)
        let generation = KeyGeneration(type: .ed25519, file: dir.file("id"), comment: "c")
        #expect(throws: KeyProblem.self) {
            try generation.generate(passphrase: Array(passphrase.utf8), askpass: askpass, keygen: keygen)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("id")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("id.pub")))
    }

    @Test func badSizesExistingFilesAndMissingFoldersAreRefusedFirst() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        FileManager.default.createFile(atPath: dir.file("old.pub"), contents: Data("x".utf8))
        let refused: [KeyGeneration] = [
            KeyGeneration(type: .ed25519, bits: 256, file: dir.file("a"), comment: ""),
            KeyGeneration(type: .ecdsa, bits: 300, file: dir.file("a"), comment: ""),
            KeyGeneration(type: .rsa, bits: 1024, file: dir.file("a"), comment: ""),
            KeyGeneration(type: .ed25519, file: dir.file("old"), comment: ""),
            KeyGeneration(type: .ed25519, file: dir.file("missing/a"), comment: ""),
        ]
        for generation in refused {
            #expect(throws: KeyProblem.self) { try generation.check() }
        }
        #expect(throws: KeyProblem.self) {
            try KeyGeneration(file: dir.file("b"), comment: "").generate(passphrase: Array("two\nlines".utf8),
                                                                          askpass: "/bin/false")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["old.pub"])
        try KeyGeneration(type: .ecdsa, bits: 521, file: dir.file("a"), comment: "").check()
    }
}
