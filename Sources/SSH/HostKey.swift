import Crypto
import Foundation

/// A server's public host key: its algorithm name and the key blob as sent on the wire.
public struct HostKey: Sendable, Equatable {
    /// The key's algorithm as OpenSSH writes it (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`).
    public let type: String
    /// The public key blob (SSH wire format).
    public let blob: [UInt8]

    public init(type: String, blob: [UInt8]) {
        self.type = type
        self.blob = blob
    }

    /// Reads the algorithm name from the blob itself (its first SSH string).
    public init?(blob: [UInt8]) {
        guard blob.count >= 4 else { return nil }
        let n = Int(blob[0]) << 24 | Int(blob[1]) << 16 | Int(blob[2]) << 8 | Int(blob[3])
        guard n > 0, n < 64, blob.count >= 4 + n, let name = String(bytes: blob[4..<(4 + n)], encoding: .ascii)
        else { return nil }
        self.init(type: name, blob: blob)
    }

    /// `SHA256:…` as `ssh-keygen -lf` prints it (base64 without padding).
    public var fingerprint: String {
        LoginIdentity.fingerprint(ofBlob: blob)
    }

    /// The key as a known_hosts / authorized_keys field pair: `TYPE BASE64`.
    public var openSSHText: String { type + " " + Data(blob).base64EncodedString() }
}
