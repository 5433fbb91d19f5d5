import Crypto
import _CryptoExtras
import Foundation

/// The age file format (C2SP age, https://age-encryption.org/v1) with one passphrase (scrypt) recipient: what the
/// vault is stored in, so Debian's `age -d` opens it if eSSH is ever gone. Whole files in memory (a vault is small);
/// pure: no files, no terminal. Written from the specification; other recipient types and ASCII armor are refused.
///
/// Secrets: the file key and every derived key live in swift-crypto's `SymmetricKey` (zeroed when freed); byte
/// copies this code makes of them are wiped with `explicit_bzero`. The passphrase is the caller's to wipe.
public enum AgeFile {
    /// The highest work factor (log2 of scrypt's N) `encrypt` uses: 2^30 × 1 KiB of memory is already 1 TiB.
    public static let maxWriteWorkFactor = 30
    static let versionLine = Array("age-encryption.org/v1\n".utf8)
    static let scryptLabel = Array("age-encryption.org/v1/scrypt".utf8)
    static let chunkSize = 64 * 1024
    static let tagSize = 16

    /// Encrypts `plaintext` to `passphrase` with scrypt work factor 2^`workFactor` (age's default is 18).
    public static func encrypt(plaintext: [UInt8], passphrase: [UInt8], workFactor: Int) throws(AgeError) -> [UInt8] {
        try makeKey(passphrase: passphrase, workFactor: workFactor).seal(plaintext)
    }

    /// A new file key wrapped to `passphrase` (one scrypt run): what `init` and a passphrase change start from.
    public static func makeKey(passphrase: [UInt8], workFactor: Int) throws(AgeError) -> AgeKey {
        guard (1...maxWriteWorkFactor).contains(workFactor) else { throw .workFactorOutOfRange(workFactor) }
        let fileKey = SymmetricKey(size: .bits128)
        let salt = randomBytes(16)
        let wrapKey = try scryptKey(passphrase: passphrase, salt: salt, workFactor: workFactor)
        let body: [UInt8]
        do {
            let box = try fileKey.withUnsafeBytes { try ChaChaPoly.seal($0, using: wrapKey, nonce: zeroNonce()) }
            body = Array(box.ciphertext) + Array(box.tag)
        } catch { throw .keyDerivationFailed }
        let stanza = Stanza(arguments: ["scrypt", AgeBase64.encode(salt), String(workFactor)], body: body)
        return AgeKey(stanza: stanza, fileKey: fileKey)
    }

    /// Decrypts an age file with `passphrase`, refusing work factors above 2^`maxWorkFactor` before any scrypt work.
    public static func decrypt(_ file: [UInt8], passphrase: [UInt8], maxWorkFactor: Int) throws(AgeError) -> [UInt8] {
        try unlock(file, passphrase: passphrase, maxWorkFactor: maxWorkFactor).plaintext
    }

    /// Opens an age file with `passphrase` (one scrypt run, refused above 2^`maxWorkFactor` before any work) and
    /// keeps its key: later writes re-seal with `AgeKey.seal` and later reads open with `AgeKey.open`, no scrypt.
    public static func unlock(_ file: [UInt8], passphrase: [UInt8], maxWorkFactor: Int)
        throws(AgeError) -> (key: AgeKey, plaintext: [UInt8])
    {
        let header = try parseHeader(file)
        let scrypt = header.stanzas.filter { $0.arguments.first == "scrypt" }
        if scrypt.isEmpty { throw .notPassphraseEncrypted(recipientTypes: header.stanzas.map { $0.arguments[0] }) }
        guard header.stanzas.count == 1 else { throw .scryptStanzaNotAlone }
        let stanza = scrypt[0]
        let (salt, workFactor) = try scryptParameters(stanza, maxWorkFactor: maxWorkFactor)
        let wrapKey = try scryptKey(passphrase: passphrase, salt: salt, workFactor: workFactor)
        var keyBytes: Data
        do {
            let box = try ChaChaPoly.SealedBox(nonce: zeroNonce(), ciphertext: stanza.body[0..<16], tag: stanza.body[16...])
            keyBytes = try ChaChaPoly.open(box, using: wrapKey)
        } catch { throw .wrongPassphrase }
        let key = AgeKey(stanza: stanza, fileKey: SymmetricKey(data: keyBytes))
        keyBytes.resetBytes(in: 0..<keyBytes.count)
        return (key, try key.openBody(file, header: header))
    }

    /// The salt and work factor of an scrypt stanza, checked as the specification asks (and against the limit).
    static func scryptParameters(_ stanza: Stanza, maxWorkFactor: Int) throws(AgeError) -> (salt: [UInt8], workFactor: Int) {
        guard stanza.arguments.count == 3 else { throw .malformedHeader("an scrypt stanza needs a salt and a work factor") }
        guard let salt = AgeBase64.decode(Array(stanza.arguments[1].utf8)), salt.count == 16 else {
            throw .malformedHeader("the scrypt salt is not 16 bytes of canonical base64")
        }
        let logN = Array(stanza.arguments[2].utf8)
        guard let first = logN.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first),
              logN.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw .malformedHeader("the scrypt work factor is not a decimal number without leading zeros") }
        guard logN.count <= 3, let workFactor = Int(stanza.arguments[2]), workFactor <= maxWorkFactor else {
            throw .workFactorTooHigh(Int(stanza.arguments[2]) ?? Int.max, limit: maxWorkFactor)
        }
        guard stanza.body.count == 32 else { throw .malformedHeader("the scrypt stanza's body is not 32 bytes") }
        return (salt, workFactor)
    }

    // MARK: - Header

    struct Stanza: Equatable, Sendable {
        var arguments: [String]
        var body: [UInt8]
    }

    struct Header {
        var stanzas: [Stanza]
        var mac: [UInt8]
        /// The MAC covers file[0..<macCoverageEnd]: everything up to and including the final line's "---".
        var macCoverageEnd: Int
        var payloadStart: Int
    }

    static func parseHeader(_ file: [UInt8]) throws(AgeError) -> Header {
        guard file.starts(with: versionLine) else { throw .notAgeFile }
        var position = versionLine.count
        func nextLine() throws(AgeError) -> ArraySlice<UInt8> {
            guard let end = file[position...].firstIndex(of: 0x0A) else {
                throw .malformedHeader("the header ends without its MAC line (file truncated?)")
            }
            defer { position = end + 1 }
            return file[position..<end]
        }
        var stanzas: [Stanza] = []
        while true {
            let lineStart = position
            let line = try nextLine()
            if line.starts(with: Array("---".utf8)) {
                guard !stanzas.isEmpty else { throw .malformedHeader("no recipient stanza") }
                let text = line.dropFirst(3)
                guard text.first == 0x20, let mac = AgeBase64.decode(text.dropFirst()), mac.count == 32 else {
                    throw .malformedHeader("the MAC line is not \"--- \" and 32 bytes of base64")
                }
                return Header(stanzas: stanzas, mac: mac, macCoverageEnd: lineStart + 3, payloadStart: position)
            }
            guard line.starts(with: Array("-> ".utf8)) else {
                throw .malformedHeader("a line that is neither a stanza (\"->\") nor the MAC (\"---\")")
            }
            let arguments = line.dropFirst(3).split(separator: 0x20, omittingEmptySubsequences: false)
            guard arguments.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x21...0x7E).contains($0) } }) else {
                throw .malformedHeader("a stanza argument is empty or not printable ASCII")
            }
            var body: [UInt8] = []
            while true {
                let bodyLine = try nextLine()
                guard bodyLine.count <= 64, bodyLine.count % 4 != 1 || bodyLine.count == 64,
                      let bytes = AgeBase64.decode(bodyLine)
                else { throw .malformedHeader("a stanza body line is not base64 wrapped at 64 columns") }
                body += bytes
                if bodyLine.count < 64 { break }
            }
            stanzas.append(Stanza(arguments: arguments.map { String(decoding: $0, as: UTF8.self) }, body: body))
        }
    }

    // MARK: - Payload

    static func chunked(_ plaintext: [UInt8]) -> [(ArraySlice<UInt8>, last: Bool)] {
        if plaintext.isEmpty { return [(plaintext[...], last: true)] }
        return stride(from: 0, to: plaintext.count, by: chunkSize).map { start in
            let end = min(start + chunkSize, plaintext.count)
            return (plaintext[start..<end], last: end == plaintext.count)
        }
    }

    /// A whole file from its stanzas, its file key and its payload's chunks as given (tests pass chunk plans the
    /// writer never makes, to check the reader's refusals).
    static func assemble(stanzas: [Stanza], fileKey: SymmetricKey, chunks: [(ArraySlice<UInt8>, last: Bool)],
                         nonce: [UInt8] = randomBytes(16)) -> [UInt8]
    {
        var out = versionLine
        for stanza in stanzas {
            out += Array(("-> " + stanza.arguments.joined(separator: " ") + "\n").utf8)
            let encoded = Array(AgeBase64.encode(stanza.body).utf8)
            var start = 0
            repeat {  // full 64-column lines, then a shorter (maybe empty) final line
                let end = min(start + 64, encoded.count)
                out += encoded[start..<end] + [0x0A]
                if end - start < 64 { break }
                start = end
            } while true
        }
        out += Array("---".utf8)
        let macKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: [UInt8](), info: Array("header".utf8),
                                            outputByteCount: 32)
        let mac = HMAC<SHA256>.authenticationCode(for: out, using: macKey)
        out += Array((" " + AgeBase64.encode(Array(mac)) + "\n").utf8)
        out += nonce
        let payloadKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: nonce, info: Array("payload".utf8),
                                                outputByteCount: 32)
        for (counter, chunk) in chunks.enumerated() {
            // ChaChaPoly.seal only throws for a bad nonce size, which nonce(_:) never makes.
            guard let box = try? ChaChaPoly.seal(chunk.0, using: payloadKey,
                                                 nonce: chunkNonce(counter, last: chunk.last)) else {
                preconditionFailure("ChaChaPoly.seal refused a 12-byte nonce")
            }
            out += box.ciphertext + box.tag
        }
        return out
    }

    static func openPayload(_ payload: ArraySlice<UInt8>, fileKey: SymmetricKey) throws(AgeError) -> [UInt8] {
        guard payload.count >= 16 + tagSize else { throw .truncated }
        let nonce = payload.prefix(16)
        let payloadKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: nonce, info: Array("payload".utf8),
                                                outputByteCount: 32)
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(payload.count)
        var start = nonce.endIndex
        var counter = 0
        while start < payload.endIndex {
            let end = min(start + chunkSize + tagSize, payload.endIndex)
            let last = end == payload.endIndex
            let piece = payload[start..<end]
            guard piece.count >= tagSize else { throw .truncated }
            guard var opened = open(piece, key: payloadKey, counter: counter, last: last) else {
                // A full final chunk that opens as a middle one: the file was cut at a chunk boundary.
                if last && piece.count == chunkSize + tagSize && open(piece, key: payloadKey, counter: counter, last: false) != nil {
                    throw .truncated
                }
                throw .payloadAuthenticationFailed(chunk: counter)
            }
            if last && opened.isEmpty && counter > 0 { throw .emptyLastChunk }
            plaintext += opened
            opened.resetBytes(in: 0..<opened.count)
            start = end
            counter += 1
        }
        return plaintext
    }

    private static func open(_ piece: ArraySlice<UInt8>, key: SymmetricKey, counter: Int, last: Bool) -> Data? {
        guard let box = try? ChaChaPoly.SealedBox(nonce: chunkNonce(counter, last: last),
                                                  ciphertext: piece.dropLast(tagSize), tag: piece.suffix(tagSize))
        else { return nil }
        return try? ChaChaPoly.open(box, using: key)
    }

    // MARK: - Primitives

    static func chunkNonce(_ counter: Int, last: Bool) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        var value = UInt64(counter)
        for index in stride(from: 10, through: 3, by: -1) {
            bytes[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        bytes[11] = last ? 1 : 0
        return nonce(bytes)
    }

    static func zeroNonce() -> ChaChaPoly.Nonce { nonce([UInt8](repeating: 0, count: 12)) }

    /// A nonce of 12 bytes, the only size ChaChaPoly.Nonce refuses nothing of.
    private static func nonce(_ bytes: [UInt8]) -> ChaChaPoly.Nonce {
        guard let nonce = try? ChaChaPoly.Nonce(data: bytes) else {
            preconditionFailure("ChaChaPoly.Nonce refused \(bytes.count) bytes")
        }
        return nonce
    }

    static func scryptKey(passphrase: [UInt8], salt: [UInt8], workFactor: Int) throws(AgeError) -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(from: passphrase, salt: scryptLabel + salt, outputByteCount: 32,
                                            rounds: 1 << workFactor, blockSize: 8, parallelism: 1)
        } catch { throw .keyDerivationFailed }
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
