import Foundation

/// The rules a server must follow before it is saved; each broken rule says what to do.
enum ServerValidation {
    static func validate(_ server: Server) throws(InventoryError) {
        try validateName(server.name)
        let host = server.host
        if host.trimmingCharacters(in: .whitespaces).isEmpty {
            throw InventoryError(.invalidHost, "",
                                 "The host of '\(server.name)' is empty: give --host NAME-OR-ADDRESS.")
        }
        if host.contains(where: { $0.isWhitespace || $0.isNewline }) || host.hasPrefix("-") {
            throw InventoryError(.invalidHost, host, """
                '\(host)' is not a valid host for '\(server.name)': use a host name or an IP address \
                without spaces and not starting with '-'.
                """)
        }
        if !(1...65535).contains(server.port) {
            throw InventoryError(.invalidPort, "\(server.port)", """
                Port \(server.port) of '\(server.name)' is out of range: use a number from 1 to 65535.
                """)
        }
        if let user = server.user, user.contains(where: { $0.isWhitespace || $0 == "@" }) {
            throw InventoryError(.invalidValue, user,
                                 "The user '\(user)' contains a space or '@'; give the bare login name.")
        }
        if server.auth == .key && server.keyPath == nil {
            throw InventoryError(.invalidValue, "",
                                 "Key authentication for '\(server.name)' needs a key file: give --key PATH.")
        }
        for tag in server.tags where tag.contains(where: { $0.isWhitespace || $0 == "," }) {
            throw InventoryError(.invalidValue, tag,
                                 "The tag '\(tag)' contains a space or a comma; use one word per tag.")
        }
    }

    static func validateName(_ name: String) throws(InventoryError) {
        if name.isEmpty {
            throw InventoryError(.invalidName, "", "A server needs a name: give one such as 'web1'.")
        }
        if name.contains(where: { $0.isWhitespace || $0.isNewline || "*?!,#\"".contains($0) })
            || name.hasPrefix("-") || name.hasPrefix("tag:") {
            throw InventoryError(.invalidName, name, """
                '\(name)' cannot be a server name: use letters, digits and . _ - @ (no spaces, no * ? ! , # \
                or quotes, not starting with '-' or 'tag:').
                """)
        }
    }

    static func normalisedTags(_ tags: [String]) -> [String] {
        Array(Set(tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })).sorted()
    }
}
