import ArgumentParser
import Basics
import Foundation
import Inventory

/// Servers as a table, JSON or ssh_config text. Pure.
enum ServerFormatting {
    static func address(_ server: Server) -> String {
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        return (server.user.map { "\($0)@" } ?? "") + host + (server.port == 22 ? "" : ":\(server.port)")
    }

    static func table(_ servers: [Server], lastChecks: [Int64: CheckResult], seen: TeamSeen = TeamSeen(),
                      colour: Bool) -> String {
        // The TEAM column only when the list holds a team's servers (`essh team`): "shared", or "queued" for one
        // added here that the team has not received yet.
        let team = servers.contains { $0.isShared }
        var table = TextTable(headers: ["NAME"] + (team ? ["TEAM"] : []) + ["ADDRESS", "AUTH", "OS", "TAGS",
                                                                           "LAST CHECK"])
        for server in servers {
            let check = server.id.flatMap { lastChecks[$0] }
            let auth = server.auth == .key ? "key \(server.keyPath ?? "")" : server.auth.rawValue
            let marker: [TextTable.Cell] = team ? [.init(text: teamWord(server))] : []
            table.add([.init(text: server.name)] + marker + [
                .init(text: address(server)), .init(text: auth),
                .init(text: server.os.rawValue), .init(text: server.tags.joined(separator: ",")),
                .init(text: (check.map { "\($0.status.word) \(relative($0.checkedAt))" } ?? "never")
                          + (seen.freshest(server).map {
                              "; \($0.member): \(word($0.status)) \(relative($0.checkedAt))"
                          } ?? ""),
                      colour: check.map { StatusColour.code(for: $0.status) } ?? nil),
            ])
        }
        return table.render(colour: colour)
    }

    /// The check results other members published for shared servers (`essh team publish on`), and who "we" are.
    struct TeamSeen {
        var checks: [String: [TeamCheck]] = [:]
        var member: String?

        /// Another member's freshest result for `server`.
        func freshest(_ server: Server) -> TeamCheck? {
            guard server.isShared else { return nil }
            return checks[server.uid]?.filter { $0.member != member }.max { $0.checkedAt < $1.checkedAt }
        }
    }

    /// A published status word as `essh check` prints it (unknown words as they came).
    static func word(_ status: String) -> String {
        CheckStatus(rawValue: status)?.word ?? status
    }

    /// "shared", "queued" (added here, not yet pushed to the team) or "" for one's own server.
    static func teamWord(_ server: Server) -> String {
        guard let revision = server.teamRevision else { return "" }
        return revision == 0 ? "queued" : "shared"
    }

    static func relative(_ date: Date, now: Date = Date()) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "\(seconds)s ago"
        case ..<3600: return "\(seconds / 60)m ago"
        case ..<86400: return "\(seconds / 3600)h ago"
        default: return "\(seconds / 86400)d ago"
        }
    }

    struct ServerJSON: Encodable {
        var name, host: String
        var port: Int
        var user: String?
        var auth: String
        var key: String?
        var os: String
        var tags: [String]
        var note: String
        var created, updated: Date
        var lastConnected: Date?
        var lastCheck: CheckJSON?
        /// OpenSSH keyword → list as written (`{"Ciphers": "+aes128-cbc"}`), only the lists changed.
        var algorithms: [String: String]
        /// The jump chain as written; "" for a direct connection.
        var jump: String
        /// Saved tunnels in their saved form (`L:5432:localhost:5432`), and whether the interface starts them.
        var forwards: [String]
        var autostart: Bool
        /// `ask`, `vault` or `command:LINE`; the stable id the vault keys the server's secrets by; the identity
        /// that last logged in (never a secret).
        var credential: String
        var uid: String
        var lastIdentity: String?
        /// The team revision of a shared server's last change (0: added here, not pushed yet); nil: one's own.
        var teamRevision: Int64?

        enum CodingKeys: String, CodingKey {
            case name, host, port, user, auth, key, os, tags, note, created, updated, algorithms, jump
            case forwards, autostart, credential, uid, shared
            case lastConnected = "last_connected", lastCheck = "last_check", lastIdentity = "last_identity"
            case teamRevision = "team_revision"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(host, forKey: .host)
            try c.encode(port, forKey: .port)
            try c.encode(user, forKey: .user)
            try c.encode(auth, forKey: .auth)
            try c.encode(key, forKey: .key)
            try c.encode(os, forKey: .os)
            try c.encode(tags, forKey: .tags)
            try c.encode(note, forKey: .note)
            try c.encode(created, forKey: .created)
            try c.encode(updated, forKey: .updated)
            try c.encode(lastConnected, forKey: .lastConnected)
            try c.encode(lastCheck, forKey: .lastCheck)
            try c.encode(algorithms, forKey: .algorithms)
            try c.encode(jump, forKey: .jump)
            try c.encode(forwards, forKey: .forwards)
            try c.encode(autostart, forKey: .autostart)
            try c.encode(credential, forKey: .credential)
            try c.encode(uid, forKey: .uid)
            try c.encode(lastIdentity, forKey: .lastIdentity)
            try c.encode(teamRevision != nil, forKey: .shared)
            try c.encode(teamRevision, forKey: .teamRevision)
        }
    }

    struct CheckJSON: Encodable {
        var status: CheckStatus
        var latencyMs: Double?
        var banner, error: String?
        var checkedAt: Date

        enum CodingKeys: String, CodingKey {
            case status, latencyMs = "latency_ms", banner, error, checkedAt = "checked_at"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(status.word, forKey: .status)
            try c.encode(latencyMs, forKey: .latencyMs)
            try c.encode(banner, forKey: .banner)
            try c.encode(error, forKey: .error)
            try c.encode(checkedAt, forKey: .checkedAt)
        }
    }

    struct ListJSON: Encodable {
        var servers: [ServerJSON]
    }

    static func json(_ servers: [Server], lastChecks: [Int64: CheckResult]) throws -> String {
        let rows = servers.map { row($0, lastCheck: $0.id.flatMap { lastChecks[$0] }) }
        return try encode(ListJSON(servers: rows))
    }

    /// One server as `servers list --json` and `servers show --json` write it: every stored field.
    static func row(_ server: Server, lastCheck: CheckResult?) -> ServerJSON {
        ServerJSON(
            name: server.name, host: server.host, port: server.port, user: server.user,
            auth: server.auth.rawValue, key: server.keyPath, os: server.os.rawValue, tags: server.tags,
            note: server.note, created: server.createdAt, updated: server.updatedAt,
            lastConnected: server.lastConnectedAt,
            lastCheck: lastCheck.map {
                CheckJSON(status: $0.status, latencyMs: $0.latencyMs, banner: $0.banner, error: $0.error,
                          checkedAt: $0.checkedAt)
            },
            algorithms: Dictionary(uniqueKeysWithValues: server.algorithms.configLines.map {
                ($0.keyword, $0.value)
            }), jump: server.jump, forwards: server.forwards, autostart: server.autostart,
            credential: server.credential.text, uid: server.uid, lastIdentity: server.lastIdentity,
            teamRevision: server.teamRevision)
    }

    /// Pretty, sorted keys, ISO 8601 dates.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Host blocks OpenSSH reads back: every value quoted and escaped by ssh_config's rules (SSHConfigQuoting), so
    /// nothing in a value can become a line of its own; a server with a value that cannot be written is refused,
    /// naming the server and the field.
    static func sshConfig(_ servers: [Server]) throws -> String {
        var out = "# Exported by eSSH \(Subcommands.version)\n"
        for server in servers {
            func arg(_ field: String, _ value: String, _ expansion: SSHConfigQuoting.Expansion = .none) throws -> String {
                do {
                    return try SSHConfigQuoting.argument(value, expansion: expansion)
                } catch {
                    throw CommandFailure(.badInput, """
                        Cannot export \(ControlCharacters.visible(server.name)): its \(field) \
                        '\(ControlCharacters.visible(value))' cannot be written in ssh_config: \(error.reason). \
                        Change it with essh servers edit, or export the others with --tag.
                        """)
                }
            }
            out += "\nHost \(try arg("name", server.name))\n    HostName \(try arg("host", server.host, .percentTokens))\n"
            if server.port != 22 { out += "    Port \(server.port)\n" }
            if let user = server.user { out += "    User \(try arg("user", user))\n" }
            if server.auth == .key, let key = server.keyPath {
                out += "    IdentityFile \(try arg("key path", key, .path))\n    IdentitiesOnly yes\n"
            }
            if server.auth == .password { out += "    PreferredAuthentications password,keyboard-interactive\n" }
            // eSSH's lists use OpenSSH's syntax; a +/-/^ change applies to OpenSSH's own defaults there.
            for (keyword, value) in server.algorithms.configLines {
                out += "    \(keyword) \(try arg(keyword, value))\n"
            }
            // OpenSSH reads the same chain: saved names become the Host blocks written here.
            if !server.jump.isEmpty { out += "    ProxyJump \(try arg("jump chain", server.jump))\n" }
        }
        return out
    }
}
