import Basics

/// Where to connect: `[user@]host[:port]` or `ssh://[user@]host[:port]`, with IPv6 literals as `[::1]:2222` or bare
/// `::1`.
public struct Destination: Sendable, Equatable {
    public var user: String?
    public var host: String
    public var port: Int?

    public init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// Parses `[user@]host[:port]` or `ssh://[user@]host[:port]` (Basics' `HostAddress`, the one reading of an
    /// address). The last `@` separates the user (user names may contain `@`).
    public init(parsing text: String) throws(SSHError) {
        do {
            let address = try HostAddress(parsing: text)
            self.init(user: address.user, host: address.host, port: address.port)
        } catch {
            throw SSHError(.nameNotFound, "", "“\(HostAddress.shown(text))” is not a destination: \(error.reason). "
                             + "Use [user@]host[:port], e.g. admin@web1:2222.")
        }
    }
}
