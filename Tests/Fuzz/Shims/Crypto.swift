// A stand-in for swift-crypto in the fuzz builds only (Tests/Fuzz/fuzz.sh): the known_hosts reader hashes names
// with HMAC-SHA1 and HostKey fingerprints with SHA-256, and swift-crypto (BoringSSL and its own C targets) cannot
// be compiled with swiftc on its own. The same API surface, computed by OpenSSL's libcrypto, so hashed known_hosts
// entries are matched for real while fuzzing. Never part of the SwiftPM build.
import CFuzzOpenSSL
import Foundation

/// A key for `HMAC`.
public struct SymmetricKey {
    let bytes: [UInt8]

    /// The key's bytes.
    public init<D: DataProtocol>(data: D) { bytes = Array(data) }
}

/// A hash function OpenSSL provides.
public protocol FuzzDigest {
    /// OpenSSL's descriptor of the digest.
    static var evp: OpaquePointer { get }
}

/// The insecure digests (only SHA-1 is needed).
public enum Insecure {
    /// SHA-1, for OpenSSH's hashed known_hosts names.
    public enum SHA1: FuzzDigest {
        public static var evp: OpaquePointer { EVP_sha1() }
    }
}

/// SHA-256.
public enum SHA256: FuzzDigest {
    public static var evp: OpaquePointer { EVP_sha256() }

    /// The digest of `data`.
    public static func hash<D: DataProtocol>(data: D) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(data)
        guard EVP_Digest(input, input.count, &out, &length, evp, nil) == 1 else { fatalError("EVP_Digest failed") }
        return Array(out.prefix(Int(length)))
    }
}

/// HMAC over `H`.
public enum HMAC<H: FuzzDigest> {
    /// The authentication code of `data` under `key`.
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(data)
        guard CFuzzOpenSSL.HMAC(H.evp, key.bytes, Int32(key.bytes.count), input, input.count, &out, &length) != nil else {
            fatalError("HMAC failed")
        }
        return Array(out.prefix(Int(length)))
    }
}
