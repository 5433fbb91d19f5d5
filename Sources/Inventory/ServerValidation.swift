import Basics
import Foundation

/// A field of a server, as the rules name it (the interface's form shows each problem beside its field).
public enum ServerField: String, Sendable, CaseIterable {
    case name, host, port, user, key, tags, note
    /// The jump hosts (`JumpList`).
    case jump
    /// The saved tunnels (their syntax is the Forwarding module's rule, checked before saving).
    case forwards
    /// Where the password comes from (`CredentialSource`; whether a command's program exists is checked before
    /// saving, by Operations' `CredentialSourceCheck`).
    case credential
    /// The algorithm lists, named after OpenSSH's keywords.
    case kexAlgorithms, hostKeyAlgorithms, ciphers, macs
}

/// One broken rule: the field and a sentence saying what to do.
public struct ServerProblem: Error, Sendable, Equatable {
    /// The field that breaks the rule.
    public let field: ServerField
    /// What is wrong and what to do.
    public let message: String
    /// The offending value (control characters written as `\xHH`, so printing it is safe).
    public let value: String
    /// The value holds a control character (ESC, NUL, a newline…), refused in every field.
    public let controlCharacter: Bool
    /// What was wrong with the address typed in the host field (`ServerAddress`), when that is the problem.
    public let address: AddressProblem?

    /// What `ServerAddress` found wrong with a host field.
    public enum AddressProblem: Sendable, Equatable {
        /// The host field names this user; the user field says another.
        case user(inHost: String, given: String)
        /// The host field names this port; the port field says another.
        case port(inHost: Int, given: Int)
        /// The host field is no address, for this reason ("an ssh:// address names no path").
        case unreadable(reason: String)
    }

    public init(field: ServerField, message: String, value: String, controlCharacter: Bool = false,
                address: AddressProblem? = nil) {
        self.field = field
        self.message = message
        self.value = value
        self.controlCharacter = controlCharacter
        self.address = address
    }
}

/// The rules a server must follow before it is saved, written once for `essh servers add/edit`, ssh_config import
/// and the interface's form; each broken rule says what to do.
public enum ServerValidation {
    /// Every rule `server` breaks, in field order (empty when it may be saved).
    public static func problems(_ server: Server) -> [ServerProblem] {
        var found: [ServerProblem] = []
        func add(_ field: ServerField, _ value: String, _ message: String) {
            found.append(ServerProblem(field: field, message: message, value: value))
        }
        // Control characters first, in every field: the other rules' messages quote the value.
        var refused = Set<ServerField>()
        let texts: [(ServerField, String, String?)] = [
            (.name, "name", server.name), (.host, "host", server.host), (.user, "user", server.user),
            (.key, "key path", server.keyPath), (.note, "note", server.note),
            (.kexAlgorithms, "KexAlgorithms", server.algorithms.kex),
            (.hostKeyAlgorithms, "HostKeyAlgorithms", server.algorithms.hostKeys),
            (.ciphers, "Ciphers", server.algorithms.ciphers), (.macs, "MACs", server.algorithms.macs),
            (.jump, "jump chain", server.jump),
        ] + server.tags.map { (.tags, "tag", $0) } + server.forwards.map { (.forwards, "forward", $0) }
        for (field, label, text) in texts {
            guard let text, ControlCharacters.contains(text), !refused.contains(field) else { continue }
            refused.insert(field)
            let shown = ControlCharacters.visible(text)
            found.append(ServerProblem(field: field, message: """
                The \(label) '\(shown)' contains a control character (shown as \\x..); type it without one.
                """, value: shown, controlCharacter: true))
        }
        if !refused.contains(.name), let problem = nameProblem(server.name) { found.append(problem) }
        let host = server.host
        if refused.contains(.host) {
        } else if host.trimmingCharacters(in: .whitespaces).isEmpty {
            add(.host, "", "The host of '\(server.name)' is empty: give --host NAME-OR-ADDRESS.")
        } else if host.contains(where: { $0.isWhitespace || $0.isNewline }) || host.hasPrefix("-") {
            add(.host, host, """
                '\(host)' is not a valid host for '\(server.name)': use a host name or an IP address \
                without spaces and not starting with '-'.
                """)
        }
        if !(1...65535).contains(server.port) {
            add(.port, "\(server.port)", """
                Port \(server.port) of '\(server.name)' is out of range: use a number from 1 to 65535.
                """)
        }
        if !refused.contains(.user), let user = server.user, user.contains(where: { $0.isWhitespace || $0 == "@" }) {
            add(.user, user, "The user '\(user)' contains a space or '@'; give the bare login name.")
        }
        if server.auth == .key && server.keyPath == nil {
            add(.key, "", "Key authentication for '\(server.name)' needs a key file: give --key PATH.")
        }
        for tag in server.tags where !refused.contains(.tags) && tag.contains(where: { $0.isWhitespace || $0 == "," }) {
            add(.tags, tag, "The tag '\(tag)' contains a space or a comma; use one word per tag.")
        }
        let lists: [(ServerField, String, String?)] = [
            (.kexAlgorithms, "KexAlgorithms (--kex)", server.algorithms.kex),
            (.hostKeyAlgorithms, "HostKeyAlgorithms (--host-key-algorithms)", server.algorithms.hostKeys),
            (.ciphers, "Ciphers (--ciphers)", server.algorithms.ciphers),
            (.macs, "MACs (--macs)", server.algorithms.macs),
        ]
        for (field, label, text) in lists {
            if let text, !refused.contains(field), let problem = AlgorithmChoices.syntaxProblem(text) {
                add(field, text, "\(label): \(problem)")
            }
        }
        if !refused.contains(.jump), let problem = jumpProblem(server.jump, name: server.name) { found.append(problem) }
        if case .command(let line) = server.credential, case .failure(let problem) = CredentialSource.parse(
            server.credential.text) {
            found.append(ServerProblem(field: .credential, message: problem.message,
                                       value: ControlCharacters.visible(line),
                                       controlCharacter: ControlCharacters.contains(line)))
        }
        return found
    }

    /// Why `jump` cannot be the jump chain of the server named `name` (`JumpList`'s syntax, or the server itself as
    /// a hop), or nil. Chains that loop through other servers are found when connecting (Operations' `JumpHosts`).
    public static func jumpProblem(_ jump: String, name: String) -> ServerProblem? {
        switch JumpList.hops(jump) {
        case .failure(let problem):
            return ServerProblem(field: .jump, message: problem.message, value: ControlCharacters.visible(jump))
        case .success(let hops):
            guard !name.isEmpty, hops.contains(where: { $0.text == name }) else { return nil }
            return ServerProblem(field: .jump, message: """
                '\(name)' cannot be its own jump host: name the server it is reached through (--jump none for none).
                """, value: ControlCharacters.visible(jump))
        }
    }

    /// Why `name` cannot name a server, or nil.
    public static func nameProblem(_ name: String) -> ServerProblem? {
        if name.isEmpty {
            return ServerProblem(field: .name, message: "A server needs a name: give one such as 'web1'.", value: "")
        }
        // * ? [ ] ! , and tag: are the selectors' (essh exec 'web[01-20]', '!tag:db'), so a name never reads as one.
        if name.contains(where: { $0.isWhitespace || $0.isNewline || "*?!,#\"[]".contains($0) })
            || name.hasPrefix("-") || name.hasPrefix("tag:") {
            return ServerProblem(field: .name, message: """
                '\(name)' cannot be a server name: use letters, digits and . _ - @ (no spaces, no * ? [ ] ! , # \
                or quotes, not starting with '-' or 'tag:').
                """, value: name)
        }
        return nil
    }

    static func validate(_ server: Server) throws(InventoryError) {
        if let first = problems(server).first { throw error(first) }
    }

    static func error(_ problem: ServerProblem) -> InventoryError {
        let kind: InventoryError.Kind
        switch problem.field {
        case .name: kind = .invalidName
        case .host: kind = .invalidHost
        case .port: kind = .invalidPort
        case .user, .key, .tags, .note, .jump, .forwards, .credential, .kexAlgorithms, .hostKeyAlgorithms, .ciphers, .macs:
            kind = .invalidValue
        }
        return InventoryError(kind, problem.value, problem.message)
    }

    static func normalisedTags(_ tags: [String]) -> [String] {
        Array(Set(tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })).sorted()
    }
}
