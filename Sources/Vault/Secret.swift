import Foundation

/// A secret's bytes (a password, a key passphrase, an answer) held in one place and overwritten when the last
/// reference goes away. A class so that the bytes are not silently copied as a value is; read them through
/// `withBytes` or `text`. What cannot be wiped is said in docs/DECISIONS.md (2026-11-24, the vault document): Swift
/// strings made from a secret (`text`), and the copies JSONEncoder and JSONDecoder make.
public final class Secret: @unchecked Sendable, Equatable, Codable {
    // Only written in init and deinit; never shared mutably.
    private var bytes: [UInt8]

    /// Takes `bytes` over and wipes the caller's array (it was moved here).
    public init(taking bytes: inout [UInt8]) {
        self.bytes = bytes
        Wipe.bytes(&bytes)
    }

    /// A secret from text (a Swift string cannot itself be wiped; the caller should drop it at once).
    public convenience init(_ text: String) {
        var bytes = Array(text.utf8)
        self.init(taking: &bytes)
    }

    deinit { Wipe.bytes(&bytes) }

    /// The number of bytes.
    public var count: Int { bytes.count }

    /// Runs `body` on the bytes without copying them out.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer(body)
    }

    /// A copy of the bytes; the caller wipes it (`Wipe.bytes`).
    public func copyBytes() -> [UInt8] { Array(bytes) }

    /// The secret as text (not wipeable: only where an API takes a String, such as libssh2's password call).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public static func == (a: Secret, b: Secret) -> Bool { a.bytes == b.bytes }

    /// Decoded from a JSON string (JSON text keeps the vault readable after `age -d`).
    public required init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        bytes = Array(text.utf8)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Overwriting bytes so the compiler cannot drop the write as dead (`explicit_bzero`).
public enum Wipe {
    /// Zeroes every byte of `bytes` and empties it.
    public static func bytes(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
        bytes.removeAll()
    }

    /// Zeroes every byte of `data` and empties it.
    public static func data(_ data: inout Data) {
        data.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
        data.removeAll()
    }
}
