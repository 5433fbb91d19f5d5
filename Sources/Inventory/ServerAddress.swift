import Basics

/// A server's address as typed in its one host field — `web1`, `admin@web1:2222`, `ssh://admin@web1:2222`,
/// `[2001:db8::1]:2200` — with the user and port given apart (`--user`/`--port`, the form's fields): the one rule
/// `essh servers add/edit` and the interface's form apply, so `user@host:port` is never saved as a host name and
/// `ssh://user` never as a user.
public enum ServerAddress {
    /// The address split: the host alone, and the user and port the host field or the separate fields named.
    public struct Parts: Sendable, Equatable {
        public var host: String
        public var user: String?
        public var port: Int?

        public init(host: String, user: String? = nil, port: Int? = nil) {
            self.host = host
            self.user = user
            self.port = port
        }
    }

    /// Splits `text` (the host field) and joins it with `user` and `port` given apart. A host field that names a
    /// user or a port which the separate field contradicts is refused, with the field that contradicts it; one that
    /// is no address (`ssh://web1/path`, `web1:99999`) is refused on the host. Text without `@`, `:` or `ssh://`,
    /// or with spaces or control characters (which the server rules refuse with their own words), stays as it is.
    public static func split(_ text: String, user: String?, port: Int?) -> Result<Parts, ServerProblem> {
        let plain = Parts(host: text, user: user, port: port)
        let marked = text.contains("@") || text.contains(":") || text.hasPrefix("[") || HostAddress.isURI(text)
        guard marked, !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || HostAddress.isControl($0) })
        else { return .success(plain) }
        let address: HostAddress
        do {
            address = try HostAddress(parsing: text)
        } catch {
            return .failure(ServerProblem(field: .host, message: """
                '\(text)' is not an address: \(error.reason). Give host, user@host:port or ssh://user@host:port.
                """, value: text, address: .unreadable(reason: error.reason)))
        }
        if let named = address.user, let user, named != user {
            return .failure(ServerProblem(field: .user, message: """
                '\(text)' names the user \(named), but --user says \(user): give the user once.
                """, value: user, address: .user(inHost: named, given: user)))
        }
        if let named = address.port, let port, named != port {
            return .failure(ServerProblem(field: .port, message: """
                '\(text)' names the port \(named), but --port says \(port): give the port once.
                """, value: String(port), address: .port(inHost: named, given: port)))
        }
        return .success(Parts(host: address.host, user: address.user ?? user, port: address.port ?? port))
    }

    /// `split`, its problem thrown as the error `servers add/edit` end with (bad input).
    public static func parts(_ text: String, user: String?, port: Int?) throws(InventoryError) -> Parts {
        switch split(text, user: user, port: port) {
        case .success(let parts): return parts
        case .failure(let problem): throw ServerValidation.error(problem)
        }
    }
}
