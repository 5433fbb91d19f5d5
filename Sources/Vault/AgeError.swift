/// Why an age file could not be read or written. Each case says what is wrong in words a person can act on; none
/// carries a secret.
public enum AgeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with `age-encryption.org/v1` (zero-length, another format, or ASCII-armored age).
    case notAgeFile
    /// The header breaks the format's grammar (a stanza line, its base64, the MAC line); the text says where.
    case malformedHeader(String)
    /// No scrypt (passphrase) stanza: the file was encrypted to other recipient types (named).
    case notPassphraseEncrypted(recipientTypes: [String])
    /// An scrypt stanza next to other stanzas, which the specification requires readers to refuse.
    case scryptStanzaNotAlone
    /// The file asks for more scrypt work (log2 N) than this reader accepts.
    case workFactorTooHigh(Int, limit: Int)
    /// A work factor this writer will not use (outside 1...limit).
    case workFactorOutOfRange(Int)
    /// The passphrase does not open the file key.
    case wrongPassphrase
    /// The header's MAC does not match: the header was changed after it was written.
    case headerMACMismatch
    /// The payload ends before its final chunk (cut short, or its nonce missing).
    case truncated
    /// A payload chunk fails authentication (a changed byte, or chunks reordered or cut at a chunk boundary).
    case payloadAuthenticationFailed(chunk: Int)
    /// An empty final chunk after other chunks, which the specification forbids.
    case emptyLastChunk
    /// The file's passphrase stanza is not the one of the key kept from an earlier unlock: the file was re-encrypted
    /// under another passphrase (or replaced) since.
    case keyChanged
    /// scrypt itself failed (for example, not enough memory for the work factor).
    case keyDerivationFailed

    public var description: String {
        switch self {
        case .notAgeFile: return "not an age file (no \"age-encryption.org/v1\" header)"
        case .malformedHeader(let what): return "malformed age header: \(what)"
        case .notPassphraseEncrypted(let types):
            return "the age file is not passphrase-encrypted (recipient types: \(types.joined(separator: ", ")))"
        case .scryptStanzaNotAlone: return "the age file mixes a passphrase (scrypt) stanza with other recipients"
        case .workFactorTooHigh(let n, let limit):
            return "the age file's scrypt work factor 2^\(n) is above the accepted limit 2^\(limit)"
        case .workFactorOutOfRange(let n): return "scrypt work factor \(n) is out of range"
        case .wrongPassphrase: return "wrong passphrase"
        case .headerMACMismatch: return "the age header has been changed (its MAC does not match)"
        case .truncated: return "the age file is truncated"
        case .payloadAuthenticationFailed(let chunk):
            return "the age file's payload is damaged or changed (chunk \(chunk) fails authentication)"
        case .emptyLastChunk: return "the age file ends with an empty chunk, which the format forbids"
        case .keyChanged:
            return "the file was re-encrypted with another passphrase since it was unlocked; unlock it again"
        case .keyDerivationFailed: return "scrypt key derivation failed"
        }
    }
}
