/// Where to connect: `[user@]host[:port]`, with IPv6 literals as `[::1]:2222` or bare `::1`.
public struct Destination: Sendable, Equatable {
    public var user: String?
    public var host: String
    public var port: Int?

    public init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// Parses `[user@]host[:port]`. The last `@` separates the user (user names may contain `@`).
    public init(parsing text: String) throws(SSHError) {
        func bad(_ why: String) -> SSHError {
            SSHError(.nameNotFound, "", "“\(Self.shown(text))” is not a destination: \(why). "
                         + "Use [user@]host[:port], e.g. admin@web1:2222.")
        }
        // Delimiters are looked for among Unicode scalars, not characters: a combining mark after "@", "[" or ":"
        // would otherwise make one character with it and hide it.
        var rest = Substring(text).unicodeScalars
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
    /// name holds one, and a DEST is printed back in messages (OpenSSH refuses them too).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Text quoted back in a message, its control characters written out (`\u{1b}`): shown, never obeyed.
    static func shown(_ text: some StringProtocol) -> String {
        text.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
