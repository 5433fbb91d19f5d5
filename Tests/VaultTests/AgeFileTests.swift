import Crypto
import Testing
@testable import Vault

/// AgeFile against itself and against hand-made files the writer never produces. Work factor 2^10 keeps scrypt fast.
@Suite struct AgeFileTests {
    let passphrase = Array("correct horse battery staple".utf8)

    func roundTrip(_ plaintext: [UInt8]) throws {
        let file = try AgeFile.encrypt(plaintext: plaintext, passphrase: passphrase, workFactor: 10)
        #expect(try AgeFile.decrypt(file, passphrase: passphrase, maxWorkFactor: 18) == plaintext)
    }

    @Test(arguments: [0, 1, 100, 65_535, 65_536, 65_537, 2 * 65_536, 200_000])
    func roundTrips(size: Int) throws {
        try roundTrip((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    @Test func headerIsTheSpecificationsShape() throws {
        let file = try AgeFile.encrypt(plaintext: Array("hi".utf8), passphrase: passphrase, workFactor: 12)
        let text = String(decoding: file.prefix(while: { $0 != UInt8(ascii: "-") || true }).prefix(200), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "age-encryption.org/v1")
        let arguments = lines[1].split(separator: " ")
        #expect(arguments.count == 4 && arguments[0] == "->" && arguments[1] == "scrypt" && arguments[3] == "12")
        #expect(arguments[2].count == 22)  // 16 bytes, unpadded base64
        #expect(lines[2].count == 43)  // 32-byte body on one line
        #expect(lines[3].hasPrefix("--- ") && lines[3].count == 4 + 43)
        // Payload: 16-byte nonce + one 2-byte chunk + tag.
        let headerLength = lines[0...3].reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(file.count == headerLength + 16 + 2 + 16)
    }

    @Test func twoEncryptionsDiffer() throws {
        let a = try AgeFile.encrypt(plaintext: [1, 2, 3], passphrase: passphrase, workFactor: 10)
        let b = try AgeFile.encrypt(plaintext: [1, 2, 3], passphrase: passphrase, workFactor: 10)
        #expect(a != b)
    }

    @Test func wrongPassphrase() throws {
        let file = try AgeFile.encrypt(plaintext: [1, 2, 3], passphrase: passphrase, workFactor: 10)
        #expect(throws: AgeError.wrongPassphrase) {
            try AgeFile.decrypt(file, passphrase: Array("Correct horse battery staple".utf8), maxWorkFactor: 18)
        }
    }

    @Test func notAnAgeFile() {
        for bytes in [[], Array("hello\n".utf8), Array("age-encryption.org/v2\n".utf8),
                      Array("-----BEGIN AGE ENCRYPTED FILE-----\n".utf8)] as [[UInt8]] {
            #expect(throws: AgeError.notAgeFile) { try AgeFile.decrypt(bytes, passphrase: passphrase, maxWorkFactor: 18) }
        }
    }

    @Test func workFactorAboveTheLimitIsRefusedBeforeScrypt() throws {
        let file = try AgeFile.encrypt(plaintext: [1], passphrase: passphrase, workFactor: 12)
        #expect(throws: AgeError.workFactorTooHigh(12, limit: 11)) {
            try AgeFile.decrypt(file, passphrase: passphrase, maxWorkFactor: 11)
        }
        // A huge one is refused at once, not attempted.
        let huge = replacingStanzaLine(of: file, with: "-> scrypt \(AgeBase64.encode([UInt8](repeating: 0, count: 16))) 99999999999999999999")
        #expect(throws: AgeError.workFactorTooHigh(Int.max, limit: 22)) {
            try AgeFile.decrypt(huge, passphrase: passphrase, maxWorkFactor: 22)
        }
    }

    @Test func writerRefusesOutOfRangeWorkFactors() {
        #expect(throws: AgeError.workFactorOutOfRange(0)) { try AgeFile.encrypt(plaintext: [], passphrase: passphrase, workFactor: 0) }
        #expect(throws: AgeError.workFactorOutOfRange(31)) { try AgeFile.encrypt(plaintext: [], passphrase: passphrase, workFactor: 31) }
    }

    @Test func malformedWorkFactorAndSalt() throws {
        let file = try AgeFile.encrypt(plaintext: [1], passphrase: passphrase, workFactor: 10)
        let salt = AgeBase64.encode([UInt8](repeating: 7, count: 16))
        for line in ["-> scrypt \(salt) 010", "-> scrypt \(salt) +10", "-> scrypt \(salt)", "-> scrypt \(salt) 10 x",
                     "-> scrypt \(AgeBase64.encode([UInt8](repeating: 7, count: 15))) 10", "-> scrypt \(salt)== 10",
                     "-> scrypt  \(salt) 10"] {
            #expect(throws: AgeError.self) { try AgeFile.decrypt(replacingStanzaLine(of: file, with: line),
                                                                 passphrase: passphrase, maxWorkFactor: 18) }
            do {
                _ = try AgeFile.decrypt(replacingStanzaLine(of: file, with: line), passphrase: passphrase, maxWorkFactor: 18)
            } catch {
                guard case .malformedHeader = error else { Issue.record("\(line): \(error)"); continue }
            }
        }
    }

    @Test func otherRecipientTypesAreNamed() throws {
        let key = SymmetricKey(size: .bits128)
        let x25519 = AgeFile.Stanza(arguments: ["X25519", AgeBase64.encode([UInt8](repeating: 1, count: 32))],
                                    body: [UInt8](repeating: 2, count: 32))
        let file = AgeFile.assemble(stanzas: [x25519], fileKey: key, chunks: AgeFile.chunked([1]))
        #expect(throws: AgeError.notPassphraseEncrypted(recipientTypes: ["X25519"])) {
            try AgeFile.decrypt(file, passphrase: passphrase, maxWorkFactor: 18)
        }
    }

    @Test func scryptStanzaMustBeAlone() throws {
        let key = SymmetricKey(size: .bits128)
        let scrypt = AgeFile.Stanza(arguments: ["scrypt", AgeBase64.encode([UInt8](repeating: 1, count: 16)), "10"],
                                    body: [UInt8](repeating: 2, count: 32))
        let other = AgeFile.Stanza(arguments: ["example.com/enigma"], body: [UInt8](repeating: 3, count: 100))
        for stanzas in [[scrypt, other], [other, scrypt], [scrypt, scrypt]] {
            let file = AgeFile.assemble(stanzas: stanzas, fileKey: key, chunks: AgeFile.chunked([1]))
            #expect(throws: AgeError.scryptStanzaNotAlone) {
                try AgeFile.decrypt(file, passphrase: passphrase, maxWorkFactor: 18)
            }
        }
    }

    @Test func aChangedHeaderFailsItsMAC() throws {
        let file = try AgeFile.encrypt(plaintext: [1, 2, 3], passphrase: passphrase, workFactor: 10)
        // The MAC covers the version line too; flip the letter case of "v1"? That makes it not age. Change the MAC itself.
        var changed = file
        let macLine = indexOfMACLine(file)
        changed[macLine + 10] = changed[macLine + 10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: AgeError.self) { try AgeFile.decrypt(changed, passphrase: passphrase, maxWorkFactor: 18) }
        do { _ = try AgeFile.decrypt(changed, passphrase: passphrase, maxWorkFactor: 18) } catch {
            #expect(error == .headerMACMismatch || error == .malformedHeader("the MAC line is not \"--- \" and 32 bytes of base64"))
        }
    }

    @Test func aHeaderWithAnExtraStanzaArgumentChangeFailsTheMACNotThePassphrase() throws {
        // Same key, same wrap, but a header the MAC was not made over: build with assemble, then edit a body-free byte.
        let file = try AgeFile.encrypt(plaintext: [9], passphrase: passphrase, workFactor: 10)
        let macLine = indexOfMACLine(file)
        // Replace the "---" line's MAC with one made over a different header: take another file's MAC line.
        let other = try AgeFile.encrypt(plaintext: [9], passphrase: passphrase, workFactor: 10)
        let otherMAC = Array(other[indexOfMACLine(other)..<(indexOfMACLine(other) + 48)])
        var changed = file
        changed.replaceSubrange(macLine..<(macLine + 48), with: otherMAC)
        #expect(throws: AgeError.headerMACMismatch) { try AgeFile.decrypt(changed, passphrase: passphrase, maxWorkFactor: 18) }
    }

    @Test func everyBitFlipIsRefused() throws {
        let file = try AgeFile.encrypt(plaintext: Array("secret entries".utf8), passphrase: passphrase, workFactor: 4)
        for index in file.indices {
            var changed = file
            changed[index] ^= 0x01
            #expect(throws: AgeError.self, "flip at byte \(index)") {
                try AgeFile.decrypt(changed, passphrase: passphrase, maxWorkFactor: 18)
            }
        }
    }

    @Test func truncationsAreRefused() throws {
        let plaintext = [UInt8](repeating: 0x5A, count: 3 * 65_536)
        let file = try AgeFile.encrypt(plaintext: plaintext, passphrase: passphrase, workFactor: 10)
        let payloadStart = indexOfMACLine(file) + 48
        // Cut at a chunk boundary: the remaining last chunk was written as a middle one.
        let atBoundary = Array(file.prefix(payloadStart + 16 + 2 * (65_536 + 16)))
        #expect(throws: AgeError.truncated) { try AgeFile.decrypt(atBoundary, passphrase: passphrase, maxWorkFactor: 18) }
        #expect(throws: AgeError.truncated) {
            try AgeFile.decrypt(Array(file.prefix(payloadStart + 16)), passphrase: passphrase, maxWorkFactor: 18)
        }
        #expect(throws: AgeError.truncated) {
            try AgeFile.decrypt(Array(file.prefix(payloadStart + 5)), passphrase: passphrase, maxWorkFactor: 18)
        }
        #expect(throws: AgeError.payloadAuthenticationFailed(chunk: 1)) {
            try AgeFile.decrypt(Array(file.prefix(payloadStart + 16 + 65_536 + 16 + 1000)), passphrase: passphrase,
                                maxWorkFactor: 18)
        }
        #expect(throws: AgeError.self) {
            try AgeFile.decrypt(Array(file.prefix(payloadStart - 10)), passphrase: passphrase, maxWorkFactor: 18)
        }
        // Extra bytes after the final chunk are refused too.
        #expect(throws: AgeError.self) { try AgeFile.decrypt(file + [0], passphrase: passphrase, maxWorkFactor: 18) }
    }

    @Test func emptyLastChunkRules() throws {
        let key = SymmetricKey(size: .bits128)
        let stanza = try wrappedStanza(key)
        let full = [UInt8](repeating: 1, count: 65_536)
        // A full chunk followed by an empty final chunk: forbidden.
        let bad = AgeFile.assemble(stanzas: [stanza], fileKey: key, chunks: [(full[...], last: false), ([][...], last: true)])
        #expect(throws: AgeError.emptyLastChunk) { try AgeFile.decrypt(bad, passphrase: passphrase, maxWorkFactor: 18) }
        // The same data with the full chunk as the final one: accepted; and an empty file is one empty final chunk.
        let good = AgeFile.assemble(stanzas: [stanza], fileKey: key, chunks: [(full[...], last: true)])
        #expect(try AgeFile.decrypt(good, passphrase: passphrase, maxWorkFactor: 18) == full)
        let empty = AgeFile.assemble(stanzas: [stanza], fileKey: key, chunks: [([][...], last: true)])
        #expect(try AgeFile.decrypt(empty, passphrase: passphrase, maxWorkFactor: 18) == [])
        // A last-flagged chunk before the end: the next chunk fails.
        let early = AgeFile.assemble(stanzas: [stanza], fileKey: key, chunks: [(full[...], last: true), ([1][...], last: true)])
        #expect(throws: AgeError.payloadAuthenticationFailed(chunk: 0)) {
            try AgeFile.decrypt(early, passphrase: passphrase, maxWorkFactor: 18)
        }
    }

    @Test func base64IsCanonicalAndUnpadded() {
        #expect(AgeBase64.encode(Array("f".utf8)) == "Zg")
        #expect(AgeBase64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(AgeBase64.decode(Array("Zg".utf8)) == Array("f".utf8))
        #expect(AgeBase64.decode(Array("Zh".utf8)) == nil)  // non-zero spare bits
        #expect(AgeBase64.decode(Array("Zg==".utf8)) == nil)
        #expect(AgeBase64.decode(Array("Z".utf8)) == nil)
        for n in 0..<70 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 97) }
            #expect(AgeBase64.decode(Array(AgeBase64.encode(bytes).utf8)) == bytes)
        }
    }

    @Test func longStanzaBodiesWrapAt64Columns() throws {
        let key = SymmetricKey(size: .bits128)
        for count in [47, 48, 49, 96, 100] {
            let other = AgeFile.Stanza(arguments: ["example.com/enigma", "a"], body: (0..<count).map { UInt8($0) })
            let file = AgeFile.assemble(stanzas: [other], fileKey: key, chunks: AgeFile.chunked([1]))
            #expect(try AgeFile.parseHeader(file).stanzas == [other])
        }
    }

    // MARK: helpers

    func wrappedStanza(_ key: SymmetricKey) throws -> AgeFile.Stanza {
        let salt = [UInt8](repeating: 3, count: 16)
        let wrapKey = try AgeFile.scryptKey(passphrase: passphrase, salt: salt, workFactor: 10)
        let box = try key.withUnsafeBytes { try ChaChaPoly.seal($0, using: wrapKey, nonce: AgeFile.zeroNonce()) }
        return AgeFile.Stanza(arguments: ["scrypt", AgeBase64.encode(salt), "10"], body: Array(box.ciphertext) + Array(box.tag))
    }

    func indexOfMACLine(_ file: [UInt8]) -> Int {
        let marker = Array("\n---".utf8)
        var i = 0
        while !file[i...].starts(with: marker) { i += 1 }
        return i + 1
    }

    func replacingStanzaLine(of file: [UInt8], with line: String) -> [UInt8] {
        let start = AgeFile.versionLine.count
        let end = file[start...].firstIndex(of: 0x0A)!
        var out = file
        out.replaceSubrange(start..<end, with: Array(line.utf8))
        return out
    }
}
