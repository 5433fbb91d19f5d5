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
            SSHError(.nameNotFound, "", "“\(text)” is not a destination: \(why). Use [user@]host[:port], e.g. admin@web1:2222.")
        }
        var rest = Substring(text)
        if let at = rest.lastIndex(of: "@") {
            let u = rest[..<at]
            guard !u.isEmpty else { throw bad("the user before @ is empty") }
            user = String(u)
            rest = rest[rest.index(after: at)...]
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("“[” has no closing “]”") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("unexpected text after “]”") }
                portText = after.dropFirst()
            }
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)  // a name, an IPv4 address, or a bare IPv6 address
        }
        guard !host.isEmpty else { throw bad("the host is empty") }
        guard !host.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false }) else {
            throw bad("the host contains spaces or control characters")
        }
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw bad("the port “\(portText)” is not a number from 1 to 65535")
            }
            port = p
        }
    }
}
