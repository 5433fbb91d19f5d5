import Basics

/// One operand of `essh cp`, read as scp reads it: `web1:/etc/nginx/nginx.conf`, `admin@10.0.0.5:2222:/var/log/syslog`,
/// `[fd00::5]:/srv/`, `user@[fd00::5]:2222:file`, `./site`, and `:/etc/app/` (the same path on every server the
/// selectors pick). Paths are bytes: a file name need not be UTF-8, and may hold spaces, newlines or a leading dash.
/// Parsing does no I/O; the server part is resolved later as every connecting command resolves a destination.
public enum TransferEndpoint: Sendable, Equatable {
    /// A path on this machine.
    case local(path: [UInt8])
    /// A path on one server: `server` names it as typed before the path (a saved server's name or
    /// `[user@]host[:port]`); an empty `path` is the login folder.
    case remote(server: String, path: [UInt8])
    /// `:PATH`: the same path on every server of a fleet copy (`--tag`, `--all`, names); empty is the login folder.
    case fleet(path: [UInt8])

    /// Why an operand cannot be read, as a sentence.
    public struct Problem: Error, Sendable, Equatable {
        public let message: String
    }

    /// Reads `text` (the bytes of one command-line word).
    ///
    /// The first `:` outside `[…]` ends the server part, unless a `/` comes first (`./a:b`, `/srv/a:b` are local, as
    /// with scp). After it, digits followed by another `:` are a port (`host:2222:path`); a remote file whose name
    /// starts that way is written `host:./2222:x`.
    public init(parsing text: [UInt8]) throws(Problem) {
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        guard !text.isEmpty else { throw Problem(message: "An empty path names nothing: give a file or folder.") }
        if text.first == colon {
            self = .fleet(path: Array(text.dropFirst()))
            return
        }
        var inBrackets = false
        var split: Int?
        for (i, byte) in text.enumerated() {
            if byte == UInt8(ascii: "[") { inBrackets = true }
            if byte == UInt8(ascii: "]") { inBrackets = false }
            if byte == slash && !inBrackets { break }
            if byte == colon && !inBrackets {
                split = i
                break
            }
        }
        guard let split else {
            if inBrackets, text.contains(UInt8(ascii: "[")) {
                throw Problem(message: "“\(Self.shown(text))” has a “[” without its “]”: write an IPv6 address as "
                              + "[fd00::5]:/path.")
            }
            self = .local(path: text)
            return
        }
        let serverBytes = Array(text[..<split])
        var rest = Array(text[(split + 1)...])
        guard let serverText = String(validating: serverBytes, as: UTF8.self) else {
            throw Problem(message: "“\(Self.shown(serverBytes))” is not a server name (it is not UTF-8 text); a local "
                          + "file whose name holds “:” is written ./NAME.")
        }
        guard !serverText.isEmpty else {
            throw Problem(message: "“\(Self.shown(text))” names no server before “:”.")
        }
        var server = serverText
        if let portEnd = rest.firstIndex(of: colon), portEnd > 0,
           rest[..<portEnd].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            server += ":" + String(decoding: rest[..<portEnd], as: UTF8.self)
            rest = Array(rest[(portEnd + 1)...])
        }
        do {
            _ = try HostAddress(parsing: server)
        } catch {
            throw Problem(message: "“\(HostAddress.shown(server))” is not a server: \(error.reason). Use a saved "
                          + "server's name or [user@]host[:port] before the path (web1:/etc/hosts, "
                          + "admin@10.0.0.5:2222:/var/log/syslog); a local file whose name holds “:” is written "
                          + "./NAME.")
        }
        self = .remote(server: server, path: rest)
    }

    /// Reads `text`.
    public init(parsing text: String) throws(Problem) {
        try self.init(parsing: Array(text.utf8))
    }

    /// `bytes` for a message: valid UTF-8 as text, other bytes and control characters as `\xNN`.
    public static func shown(_ bytes: some Collection<UInt8>) -> String {
        let all = Array(bytes)
        var out = ""
        var i = 0
        while i < all.count {
            // One scalar at a time; an invalid byte shows as \xNN and the next byte starts over.
            var decoder = UTF8()
            var rest = all[i...].makeIterator()
            if case .scalarValue(let scalar) = decoder.decode(&rest), !HostAddress.isControl(scalar) {
                out.unicodeScalars.append(scalar)
                i += String(scalar).utf8.count
            } else {
                out += "\\x" + String(all[i], radix: 16, uppercase: true).leftPadded(to: 2)
                i += 1
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
