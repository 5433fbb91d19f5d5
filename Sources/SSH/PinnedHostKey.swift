import Foundation

/// A host key a team pinned for one server (host and port): the only keys that server may present. Pins take the
/// place of known_hosts for that hop: a pinned key is accepted without a question or a known_hosts line, any other is
/// refused (`ConnectOptions.pinnedHostKeys`).
public struct PinnedHostKey: Sendable, Equatable {
    /// The key's type as known_hosts writes it (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`).
    public var type: String
    /// The public key blob in base64, as in a known_hosts line.
    public var key: String
    /// `SHA256:…`, as `ssh-keygen -lf` prints it.
    public var fingerprint: String
    /// Who pinned it (the editor's database role).
    public var pinnedBy: String
    public var pinnedAt: Date

    public init(type: String, key: String, fingerprint: String, pinnedBy: String, pinnedAt: Date) {
        self.type = type
        self.key = key
        self.fingerprint = fingerprint
        self.pinnedBy = pinnedBy
        self.pinnedAt = pinnedAt
    }

    /// A pin of `hostKey`, its fields taken from the key itself.
    public init(_ hostKey: HostKey, pinnedBy: String, pinnedAt: Date) {
        self.init(type: hostKey.type, key: Data(hostKey.blob).base64EncodedString(), fingerprint: hostKey.fingerprint,
                  pinnedBy: pinnedBy, pinnedAt: pinnedAt)
    }

    /// True when the server presented exactly this key: same type, same blob (a pin whose base64 does not decode
    /// matches nothing).
    public func matches(_ presented: HostKey) -> Bool {
        guard presented.type == type, let blob = Data(base64Encoded: key) else { return false }
        return [UInt8](blob) == presented.blob
    }

    /// `ssh-ed25519 SHA256:… pinned by ana on 2026-11-24 10:15 UTC`.
    var summary: String {
        "\(type) \(fingerprint) pinned by \(pinnedBy) on \(Self.timeText(pinnedAt))"
    }

    static func timeText(_ date: Date) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return format.string(from: date)
    }

    /// Judges the key `host:port` presented against its pins: nil when one pin holds it, else the refusal, which
    /// names the host, what the server sent, each pin with who set it and when, and what to do. `serverName` is the
    /// name `essh team pin` takes (the saved server's name), nil when the SSH module was not told it.
    static func refusal(of presented: HostKey, pins: [PinnedHostKey], host: String, port: Int,
                        serverName: String?) -> SSHError? {
        guard !pins.contains(where: { $0.matches(presented) }) else { return nil }
        let name = KnownHosts.lookupName(host: host, port: port)
        let sameType = pins.contains { $0.type == presented.type }
        let why = sameType
            ? "WARNING: the host key of \(name) differs from the key your team pinned for it. Someone may be "
                + "intercepting the connection (man-in-the-middle), or the server was reinstalled."
            : "The host key of \(name) is not of a type your team pinned for it: the handshake agreed on none of the "
                + "pinned types (the server holds none of them, or the allowed host key algorithms leave them out)."
        let lines = pins.map { "  " + $0.summary }.joined(separator: "\n")
        return SSHError(.hostKeyChanged, "host key not pinned", """
            \(why) Refusing to connect.
            The server now sends: \(presented.type) \(presented.fingerprint)
            The team pinned:
            \(lines)
            If the change is known to be legitimate, an editor re-pins the server's key with \
            essh team pin \(serverName ?? "NAME"), then connect again.
            """)
    }
}
