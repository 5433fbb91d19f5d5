import Foundation

/// What the vault file holds, as JSON inside the age encryption: a format version and the entries, keyed by an
/// opaque, stable server id (the caller's; a rename of the server does not move its secrets). Pure.
public struct VaultDocument: Codable, Equatable, Sendable {
    /// The format this code writes and the newest it reads.
    public static let currentFormat = 1

    /// The document's format version.
    public var format: Int
    /// The entries by server id.
    public var entries: [String: VaultEntry]

    /// An empty document of the current format.
    public init() {
        format = Self.currentFormat
        entries = [:]
    }

    /// The document in `json`; a newer format than this code knows is refused (`VaultError.newerFormat`), and so is
    /// JSON that is not a vault document (`VaultError.notAVaultDocument`).
    public static func decode(_ json: [UInt8]) throws(VaultError) -> VaultDocument {
        struct Version: Decodable { var format: Int }
        let data = Data(json)
        guard let version = try? JSONDecoder().decode(Version.self, from: data) else {
            throw .notAVaultDocument("no format version")
        }
        guard version.format <= currentFormat else { throw .newerFormat(version.format, known: currentFormat) }
        guard version.format >= 1 else { throw .notAVaultDocument("format version \(version.format)") }
        do {
            return try decoder.decode(VaultDocument.self, from: data)
        } catch {
            throw .notAVaultDocument(String(describing: error).prefix(200).description)
        }
    }

    /// The document as JSON (keys sorted, so equal documents give equal bytes). The caller wipes the bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, dates and dictionaries of strings always encode.
        guard var data = try? encoder.encode(self) else { preconditionFailure("VaultDocument did not encode") }
        defer { Wipe.data(&data) }
        return Array(data) + [0x0A]
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Sets one secret of the entry `id` (made with `name` if new), stamping its change time.
    public mutating func set(_ kind: VaultSecretKind, _ secret: Secret, id: String, name: String, now: Date = Date()) {
        var entry = entries[id] ?? VaultEntry(name: name, created: now)
        entry.name = name
        entry.changed = now
        switch kind {
        case .password: entry.password = secret
        case .keyPassphrase(let path): entry.keyPassphrases[path] = secret
        case .answer(let prompt): entry.answers[prompt] = secret
        }
        entries[id] = entry
    }
}

/// One server's secrets.
public struct VaultEntry: Codable, Equatable, Sendable {
    /// The server's display name when the entry was last changed (for `list`, and for a person reading the JSON).
    public var name: String
    /// The login password.
    public var password: Secret?
    /// Passphrases of private keys, by key file path.
    public var keyPassphrases: [String: Secret]
    /// Keyboard-interactive answers, by prompt text.
    public var answers: [String: Secret]
    /// When the entry was made.
    public var created: Date
    /// When it was last changed.
    public var changed: Date

    /// An entry with no secrets yet.
    public init(name: String, created: Date) {
        self.name = name
        password = nil
        keyPassphrases = [:]
        answers = [:]
        self.created = created
        changed = created
    }

    private enum CodingKeys: String, CodingKey {
        case name, password, keyPassphrases, answers, created, changed
    }

    /// Absent dictionaries are empty and an absent change time is the creation time: an entry written by hand (the
    /// JSON after `age -d`, edited, sealed again with `age -p`) needs only its name, a secret and `created`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        password = try container.decodeIfPresent(Secret.self, forKey: .password)
        keyPassphrases = try container.decodeIfPresent([String: Secret].self, forKey: .keyPassphrases) ?? [:]
        answers = try container.decodeIfPresent([String: Secret].self, forKey: .answers) ?? [:]
        created = try container.decode(Date.self, forKey: .created)
        changed = try container.decodeIfPresent(Date.self, forKey: .changed) ?? created
    }

    /// What the entry holds, without any secret: `password`, `passphrase PATH`, `answer PROMPT`.
    public var kinds: [VaultSecretKind] {
        (password == nil ? [] : [.password]) + keyPassphrases.keys.sorted().map { .keyPassphrase($0) }
            + answers.keys.sorted().map { .answer($0) }
    }

    /// The secret of `kind`, nil when the entry holds none.
    public func secret(_ kind: VaultSecretKind) -> Secret? {
        switch kind {
        case .password: return password
        case .keyPassphrase(let path): return keyPassphrases[path]
        case .answer(let prompt): return answers[prompt]
        }
    }

    /// True when no secret is left.
    public var isEmpty: Bool { password == nil && keyPassphrases.isEmpty && answers.isEmpty }
}

/// Which secret of an entry.
public enum VaultSecretKind: Equatable, Sendable, CustomStringConvertible {
    /// The login password.
    case password
    /// The passphrase of the key file at the path.
    case keyPassphrase(String)
    /// The keyboard-interactive answer to the prompt.
    case answer(String)

    /// `password`, `passphrase PATH`, `answer "PROMPT"`.
    public var description: String {
        switch self {
        case .password: return "password"
        case .keyPassphrase(let path): return "passphrase \(path)"
        case .answer(let prompt): return "answer \"\(prompt)\""
        }
    }
}
