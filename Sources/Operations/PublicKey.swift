import Foundation
import SSH

/// An OpenSSH public key as one `authorized_keys` line: `TYPE BASE64 [COMMENT]` (a `.pub` file's text). Two keys are
/// the same key when type and blob match, whatever their comments.
public struct PublicKey: Sendable, Equatable {
    /// `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, …
    public let type: String
    /// The key blob in base64, as the file has it.
    public let base64: String
    /// The comment (often `user@host`); empty when none.
    public let comment: String

    /// The types eSSH installs: what OpenSSH's sshd accepts today (DSA is gone from it).
    static let knownTypes: Set<String> = [
        "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa",
        "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
    ]

    /// Reads the first key line of `text`; throws `KeyProblem.notAPublicKey` saying why not (a private key given, a
    /// line that is no key, a blob whose own type differs from the line's).
    public init(text: String, source: String) throws(KeyProblem) {
        if text.contains("PRIVATE KEY-----") {
            throw KeyProblem(.notAPublicKey, "\(source) is a private key: give the public one (\(source).pub).")
        }
        guard let line = text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) })
            .first(where: { !$0.isEmpty && !$0.hasPrefix("#") })
        else {
            throw KeyProblem(.notAPublicKey, "\(source) holds no public key.")
        }
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard fields.count >= 2, Self.knownTypes.contains(fields[0]), let blob = Data(base64Encoded: fields[1]),
              HostKey(blob: [UInt8](blob))?.type == fields[0]
        else {
            throw KeyProblem(.notAPublicKey, "\(source) is not an OpenSSH public key (TYPE BASE64 [COMMENT]).")
        }
        type = fields[0]
        base64 = fields[1]
        comment = fields.count > 2 ? fields[2].trimmingCharacters(in: .whitespaces) : ""
    }

    /// Reads a `.pub` file.
    public static func read(path: String) throws(KeyProblem) -> PublicKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw KeyProblem(.notAPublicKey, exists ? "The public key \(path) cannot be read: check its permissions."
                                                    : "The public key \(path) does not exist.")
        }
        return try PublicKey(text: String(decoding: data, as: UTF8.self), source: path)
    }

    /// The line to append: type, blob and comment, one space apart.
    public var line: String { comment.isEmpty ? "\(type) \(base64)" : "\(type) \(base64) \(comment)" }

    /// `SHA256:…`, as `ssh-keygen -lf` prints it.
    public var fingerprint: String {
        LoginIdentity.fingerprint(ofBlob: [UInt8](Data(base64Encoded: base64) ?? Data()))
    }

    /// The key `essh key install` offers when none is given, as ssh-copy-id does: the first of
    /// `~/.ssh/id_ed25519.pub`, `id_ecdsa.pub`, `id_rsa.pub` that exists under `home`.
    public static func defaultPath(home: String) -> String? {
        ["id_ed25519", "id_ecdsa", "id_rsa"].map { "\(home)/.ssh/\($0).pub" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The private key beside a `.pub` file (the path without `.pub`), when it exists.
    public static func privateKey(besides publicPath: String) -> String? {
        guard publicPath.hasSuffix(".pub") else { return nil }
        let path = String(publicPath.dropLast(4))
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
