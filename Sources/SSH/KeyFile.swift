import Foundation

/// What a private key file is, read from its text without decrypting it: the key type (when the file says) and
/// whether a passphrase protects it. Lets eSSH ask for a passphrase only when one is needed and explain RSA keys.
struct KeyFile: Sendable {
    enum Kind: String, Sendable { case ed25519, ecdsa, rsa, dsa, unknown }

    let path: String
    let kind: Kind
    let encrypted: Bool
    /// The public key blob: from the file's header (OpenSSH's format keeps it in clear, also when encrypted), else
    /// from the `.pub` file beside it; nil when neither says.
    let publicBlob: [UInt8]?

    /// `SHA256:…` of the public key, as `ssh-keygen -lf` prints it.
    var fingerprint: String? { publicBlob.map(LoginIdentity.fingerprint(ofBlob:)) }

    init(path: String) throws(SSHError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw SSHError(.keyFile, exists ? "permission denied" : "no such file",
                           exists ? "The key file \(path) cannot be read: check its permissions."
                                  : "The key file \(path) does not exist.")
        }
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("BEGIN OPENSSH PRIVATE KEY") {
            let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            guard let raw = Data(base64Encoded: body) else {
                throw SSHError(.keyFile, "bad base64", "The key file \(path) is damaged (its base64 does not decode).")
            }
            (kind, encrypted, publicBlob) = Self.inspectOpenSSH([UInt8](raw))
            return
        }
        publicBlob = Self.publicFile(path + ".pub")
        if text.contains("BEGIN RSA PRIVATE KEY") {
            kind = .rsa
            encrypted = text.contains("ENCRYPTED")
        } else if text.contains("BEGIN EC PRIVATE KEY") {
            kind = .ecdsa
            encrypted = text.contains("ENCRYPTED")
        } else if text.contains("BEGIN DSA PRIVATE KEY") {
            kind = .dsa
            encrypted = text.contains("ENCRYPTED")
        } else if text.contains("BEGIN ENCRYPTED PRIVATE KEY") {
            kind = .unknown
            encrypted = true
        } else if text.contains("BEGIN PRIVATE KEY") {
            kind = .unknown
            encrypted = false
        } else {
            throw SSHError(.keyFile, "not a private key",
                           "\(path) is not a private key file (give the private key, not the .pub file).")
        }
    }

    /// The blob of a public key file (`TYPE BASE64 [COMMENT]`), nil when there is none or it is not one.
    static func publicFile(_ path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let blob = Data(base64Encoded: String(fields[1])),
              HostKey(blob: [UInt8](blob))?.type == String(fields[0]) else { return nil }
        return [UInt8](blob)
    }

    /// openssh-key-v1: magic, ciphername, kdfname, kdfoptions, count, then the first public key blob.
    private static func inspectOpenSSH(_ b: [UInt8]) -> (Kind, Bool, [UInt8]?) {
        let magic = Array("openssh-key-v1\0".utf8)
        guard b.count > magic.count, Array(b[0..<magic.count]) == magic else { return (.unknown, false, nil) }
        var i = magic.count
        func string() -> [UInt8]? {
            guard i + 4 <= b.count else { return nil }
            let n = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard n >= 0, i + 4 + n <= b.count else { return nil }
            defer { i += 4 + n }
            return Array(b[(i + 4)..<(i + 4 + n)])
        }
        let cipher = string().map { String(decoding: $0, as: UTF8.self) } ?? "none"
        _ = string(); _ = string()  // kdf name, kdf options
        i += 4  // key count
        var kind = Kind.unknown
        let pub = string()
        if let pub, let key = HostKey(blob: pub) {
            switch key.type {
            case "ssh-ed25519": kind = .ed25519
            case let t where t.hasPrefix("ecdsa-"): kind = .ecdsa
            case "ssh-rsa": kind = .rsa
            case "ssh-dss": kind = .dsa
            default: kind = .unknown
            }
        }
        return (kind, cipher != "none", pub.flatMap { HostKey(blob: $0) == nil ? nil : $0 })
    }
}

/// What eSSH can tell about a private key file without decrypting it, for modules above SSH.
public enum PrivateKeyFile {
    /// Whether a passphrase protects the key file at `path` (read from its header); nil when it cannot be read or is
    /// no private key.
    public static func isEncrypted(_ path: String) -> Bool? {
        (try? KeyFile(path: path))?.encrypted
    }
}
