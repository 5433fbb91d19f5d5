/// An address as a person types it — `[user@]host[:port]`, IPv6 as `[::1]:2222` or bare `::1`, or the same as an
/// `ssh://` URI (`ssh://admin@web1:2222`, `ssh://[2001:db8::1]:22/`) — split into user, host and port. The one
/// reading of such text: `essh exec DEST` (through SSH's `Destination`), `servers add --host`, the interface's form.
public struct HostAddress: Sendable, Equatable {
    /// The user before the last `@`, when given.
    public var user: String?
    /// The host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The port after the host, when given.
    public var port: Int?

    /// An address from its parts.
    public init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// Why a text is no address: a phrase that completes "… is not a destination: " (`reason`).
    public struct Problem: Error, Sendable, Equatable {
        /// What is wrong, e.g. "the host is empty".
        public let reason: String
    }

    /// The `ssh://` scheme (compared without case, as URI schemes are).
    public static let scheme = "ssh://"

    /// Whether `text` is written as an `ssh://` URI.
    public static func isURI(_ text: String) -> Bool {
        text.utf8.count >= scheme.utf8.count && text.prefix(scheme.count).lowercased() == scheme
    }

    /// Reads `text`. The last `@` separates the user (user names may contain `@`); in a URI, a final `/` is allowed
    /// and nothing after it (eSSH logs in; it opens no path).
    public init(parsing text: String) throws(Problem) {
        func bad(_ why: String) -> Problem { Problem(reason: why) }
        // Delimiters are looked for among Unicode scalars, not characters: a combining mark after "@", "[" or ":"
        // would otherwise make one character with it and hide it.
        var rest = Substring(text).unicodeScalars
        if Self.isURI(text) {
            rest = rest.dropFirst(Self.scheme.unicodeScalars.count)
            if let slash = rest.firstIndex(of: "/") {
                let path = rest[slash...]
                guard path.count == 1 else {
                    throw bad("an ssh:// address names no path (“\(Self.shown(Substring(path)))”)")
                }
                rest = rest[..<slash]
            }
            if let at = rest.lastIndex(of: "@"), rest[..<at].contains(";") {
                throw bad("the ;fingerprint part of an ssh:// address is not supported (known_hosts checks the key)")
            }
        }
        if let at = rest.lastIndex(of: "@") {
            let u = rest[..<at]
            guard !u.isEmpty else { throw bad("the user before @ is empty") }
            guard !u.contains(where: Self.isControl) else { throw bad("the user contains control characters") }
            user = String(Substring(u))
            rest = rest[rest.index(after: at)...]
        }
        var portText: Substring?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { throw bad("“[” has no closing “]”") }
            host = String(Substring(rest[rest.index(after: rest.startIndex)..<close]))
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw bad("unexpected text after “]”") }
                portText = Substring(after.dropFirst())
            }
        } else if rest.lazy.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            host = String(Substring(rest[..<colon]))
            portText = Substring(rest[rest.index(after: colon)...])
        } else {
            host = String(Substring(rest))  // a name, an IPv4 address, or a bare IPv6 address
        }
        guard !host.isEmpty else { throw bad("the host is empty") }
        guard !host.unicodeScalars.contains(where: { $0.properties.isWhitespace || Self.isControl($0) }) else {
            throw bad("the host contains spaces or control characters")
        }
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw bad("the port “\(Self.shown(portText))” is not a number from 1 to 65535")
            }
            port = p
        }
    }

    /// C0 controls, DEL and C1 controls (U+0080-U+009F, which a terminal may read as ESC sequences): no user or host
    /// name holds one, and an address is printed back in messages (OpenSSH refuses them too).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Text quoted back in a message, its control characters written out (`\u{1b}`): shown, never obeyed.
    public static func shown(_ text: some StringProtocol) -> String {
        text.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
