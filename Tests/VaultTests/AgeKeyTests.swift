import Testing
@testable import Vault

/// The key kept after one unlock: re-sealing without scrypt, opening only its own files, export for the agent.
@Suite struct AgeKeyTests {
    let passphrase = Array("kept key passphrase".utf8)

    func headerEnd(_ file: [UInt8]) -> Int {
        // The end of the "--- MAC" line: the header up to and including it.
        var lines = 0, index = 0
        while lines < 4 { if file[index] == 0x0A { lines += 1 }; index += 1 }
        return index
    }

    @Test func unlockedKeyResealsUnderTheSameHeaderWithAFreshNonce() throws {
        let first = try AgeFile.encrypt(plaintext: Array("one".utf8), passphrase: passphrase, workFactor: 10)
        let (key, plaintext) = try AgeFile.unlock(first, passphrase: passphrase, maxWorkFactor: 18)
        #expect(plaintext == Array("one".utf8))
        #expect(key.workFactor == 10)
        let second = key.seal(Array("two, longer".utf8))
        let third = key.seal(Array("two, longer".utf8))
        let end = headerEnd(first)
        #expect(Array(second[..<end]) == Array(first[..<end]), "same stanza and the same header MAC")
        #expect(Array(second[end..<end + 16]) != Array(first[end..<end + 16]), "a fresh payload nonce")
        #expect(Array(second[end..<end + 16]) != Array(third[end..<end + 16]))
        // Still an age file the passphrase opens, and the key opens it without scrypt.
        #expect(try AgeFile.decrypt(second, passphrase: passphrase, maxWorkFactor: 18) == Array("two, longer".utf8))
        #expect(try key.open(second) == Array("two, longer".utf8))
    }

    @Test func aKeyOpensOnlyFilesUnderItsOwnStanza() throws {
        let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
        let other = try AgeFile.makeKey(passphrase: passphrase, workFactor: 10)
        #expect(key.exported() != other.exported(), "a new key (passwd) is a new file key and salt")
        #expect(throws: AgeError.keyChanged) { try key.open(other.seal([1, 2, 3])) }
        var flipped = key.seal([1, 2, 3])
        flipped[flipped.count - 1] ^= 1
        #expect(throws: AgeError.payloadAuthenticationFailed(chunk: 0)) { try key.open(flipped) }
        #expect(throws: AgeError.notAgeFile) { try key.open([]) }
        #expect(throws: AgeError.truncated) { try key.open(Array(key.seal([1, 2, 3]).dropLast(20))) }
    }

    @Test func exportedBytesRoundTrip() throws {
        let key = try AgeFile.makeKey(passphrase: passphrase, workFactor: 11)
        let bytes = key.exported()
        #expect(bytes.count == AgeKey.exportedSize)
        let back = try #require(AgeKey(exported: bytes, maxWorkFactor: 18))
        #expect(back.workFactor == 11)
        #expect(try back.open(key.seal([9, 8, 7])) == [9, 8, 7])
        #expect(try AgeFile.decrypt(back.seal([4]), passphrase: passphrase, maxWorkFactor: 18) == [4])
        #expect(AgeKey(exported: Array(bytes.dropLast()), maxWorkFactor: 18) == nil)
        #expect(AgeKey(exported: bytes, maxWorkFactor: 10) == nil, "above the read limit")
    }
}
