import Inventory

/// Where a connection goes: a saved server, or a host typed for quick connect.
package struct ConnectTarget: Sendable, Equatable {
    /// The saved server's name; nil for quick connect (nothing is recorded then).
    package var name: String?
    package var host: String
    package var port: Int
    /// Login user; nil means the local user.
    package var user: String?
    package var auth: AuthMethod
    package var keyPath: String?
    package var os: ServerOS

    package init(server: Server) {
        name = server.name
        host = server.host
        port = server.port
        user = server.user
        auth = server.auth
        keyPath = server.keyPath
        os = server.os
    }

    package init(host: String, port: Int, user: String?) {
        name = nil
        self.host = host
        self.port = port
        self.user = user
        auth = .agent
        keyPath = nil
        os = .auto
    }

    /// `user@host:port` as shown in headers.
    package func label(localUser: String) -> String {
        let who = user ?? localUser
        let place = host.contains(":") ? "[\(host)]" : host
        return port == 22 ? "\(who)@\(place)" : "\(who)@\(place):\(port)"
    }
}
