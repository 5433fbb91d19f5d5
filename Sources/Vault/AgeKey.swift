import Crypto
import Foundation

/// An unlocked age file's key: its scrypt stanza (salt, work factor, wrapped file key) and the file key itself. Kept
/// after one passphrase unlock so that later reads (`open`) and writes (`seal`) need no scrypt run: a write keeps the
/// header (so its MAC, which covers only the header, is the same) and seals the new payload under a fresh 16-byte
/// payload nonce, which is what age's security needs (the payload key is derived from file key and nonce).
/// A new passphrase is a new key (`AgeFile.makeKey`), never this one re-wrapped.
///
/// The file key lives in a `SymmetricKey` (zeroed by swift-crypto when freed). Unchecked Sendable: both fields are
/// immutable, and `SymmetricKey` (immutable storage) is not marked Sendable on Linux.
public struct AgeKey: @unchecked Sendable {
    let stanza: AgeFile.Stanza
    let fileKey: SymmetricKey

    /// The bytes of `exported()`: work factor, salt, wrapped key, file key.
    public static let exportedSize = 1 + 16 + 32 + 16

    /// The scrypt work factor (log2 N) the passphrase is wrapped with.
    public var workFactor: Int { Int(stanza.arguments[2]) ?? 0 }

    /// A whole age file holding `plaintext`, under this key's header and a fresh payload nonce.
    public func seal(_ plaintext: [UInt8]) -> [UInt8] {
        AgeFile.assemble(stanzas: [stanza], fileKey: fileKey, chunks: AgeFile.chunked(plaintext))
    }

    /// The plaintext of `file`, which must carry this key's stanza (another stanza: `keyChanged`, the file was
    /// re-encrypted under another passphrase since this key was unlocked).
    public func open(_ file: [UInt8]) throws(AgeError) -> [UInt8] {
        let header = try AgeFile.parseHeader(file)
        guard header.stanzas == [stanza] else { throw .keyChanged }
        return try openBody(file, header: header)
    }

    /// Checks the header MAC, then decrypts the payload.
    func openBody(_ file: [UInt8], header: AgeFile.Header) throws(AgeError) -> [UInt8] {
        let macKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: [UInt8](), info: Array("header".utf8),
                                            outputByteCount: 32)
        guard HMAC<SHA256>.isValidAuthenticationCode(header.mac, authenticating: file[0..<header.macCoverageEnd],
                                                     using: macKey)
        else { throw .headerMACMismatch }
        return try AgeFile.openPayload(file[header.payloadStart...], fileKey: fileKey)
    }

    /// The key as `exportedSize` bytes, to hand to the unlock agent over a pipe or a socket. The caller wipes them.
    public func exported() -> [UInt8] {
        var out: [UInt8] = [UInt8(workFactor)]
        out += AgeBase64.decode(Array(stanza.arguments[1].utf8)) ?? []
        out += stanza.body
        fileKey.withUnsafeBytes { out += $0 }
        return out
    }

    /// A key from `exported()`'s bytes; nil when they are not such bytes (the work factor is checked against
    /// `maxWorkFactor` as a file's would be).
    public init?(exported bytes: [UInt8], maxWorkFactor: Int) {
        guard bytes.count == Self.exportedSize, (1...maxWorkFactor).contains(Int(bytes[0])) else { return nil }
        stanza = AgeFile.Stanza(arguments: ["scrypt", AgeBase64.encode(Array(bytes[1..<17])), String(bytes[0])],
                                body: Array(bytes[17..<49]))
        fileKey = SymmetricKey(data: bytes[49..<65])
    }

    init(stanza: AgeFile.Stanza, fileKey: SymmetricKey) {
        self.stanza = stanza
        self.fileKey = fileKey
    }
}
