import Foundation
import Inventory

extension Server {
    /// A saved server for tests, with everything not named at its default.
    init(name: String, host: String, port: Int = 22, user: String? = nil, auth: AuthMethod, keyPath: String? = nil,
         jump: String = "") {
        let now = Date(timeIntervalSince1970: 0)
        self.init(id: 1, name: name, host: host, port: port, user: user, auth: auth, keyPath: keyPath, os: .auto,
                  tags: [], note: "", createdAt: now, updatedAt: now, lastConnectedAt: nil, jump: jump)
    }
}
