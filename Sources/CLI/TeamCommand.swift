import ArgumentParser
import Basics
import Foundation
import Inventory
import SSH
import Team

/// `essh team …`: one server list for a whole team, kept in a PostgreSQL database the team runs, with a copy in each
/// member's own database so eSSH works without the server (issue 18).
struct TeamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "team",
        abstract: "Share one server list with a team through a PostgreSQL database; work offline from a local copy.",
        discussion: """
            An administrator creates eSSH's schema once (`essh team init URL`) and grants PostgreSQL's roles: \
            essh_editors may add, change and remove shared servers and pin host keys; essh_members may read them \
            and publish check results. Each member links their inventory with `essh team join URL`. Shared \
            servers appear beside your own (marked in `essh servers list` and the interface); notes, the \
            credential source, the key that worked and history stay on your machine. The password comes from \
            ~/.pgpass, a client certificate or peer login, else it is asked once and kept in the vault. The URL \
            never holds a password, and PGPASSWORD is ignored.
            """,
        subcommands: [Init.self, Join.self, Status.self, Sync.self, Push.self, Conflicts.self, Pin.self,
                      Unpin.self, Publish.self, Leave.self])

    /// Options every team command that reaches the server takes.
    struct ServerOptions: ParsableArguments {
        @OptionGroup var database: DatabaseOptions
        @Option(name: .customLong("password-file"), help: ArgumentHelp(
            "Read the team database's password from this file (mode 0600 or stricter).", valueName: "FILE"))
        var passwordFile: String?
        @Option(help: ArgumentHelp("Seconds to wait for the team database (1-300).", valueName: "SECONDS"))
        var timeout = 10
        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            if !(1...300).contains(timeout) { throw ValidationError("--timeout takes 1 to 300 seconds.") }
        }

        var access: TeamAccess { TeamAccess(database: database, passwordFile: passwordFile, timeout: timeout) }

        /// The linked team's database, opened; a server out of reach is noted in the cache for `status`.
        func openLinked(_ inventory: Inventory) throws -> (TeamLink, TeamDatabase) {
            let link = try TeamCommand.link(inventory)
            do {
                return (link, try access.open(link.url))
            } catch let error as TeamError where error.isOffline {
                try? inventory.noteTeamSyncFailure(error.message, at: Date())
                throw TeamError(error.kind, error.message + " " + TeamCommand.offlineNote(inventory))
            }
        }
    }

    static func link(_ inventory: Inventory) throws -> TeamLink {
        guard let link = try inventory.teamLink() else {
            throw TeamError(.notLinked, "This inventory is not linked to a team: run `essh team join URL` first.")
        }
        return link
    }

    /// After an edit of shared servers: pushes it now when the team database answers, else says it is queued. The
    /// edit is saved either way, so this never fails the command.
    static func pushSoon(_ inventory: Inventory, database: DatabaseOptions) {
        guard let link = try? inventory.teamLink(), (try? inventory.teamCounts().outbox) ?? 0 > 0 else { return }
        do {
            let team = try TeamAccess(database: database, passwordFile: nil, timeout: 5).open(link.url)
            let report = try TeamSync.run(team, inventory: inventory)
            describe(report, target: team.url.display)
        } catch {
            if let error = error as? TeamError, error.isOffline {
                try? inventory.noteTeamSyncFailure(error.message, at: Date())
            }
            TerminalOutput.line("Queued for the team: \(UserFacing.sentence(error)) `essh team sync` pushes it later.")
        }
    }

    /// What the member still has while the server is away.
    static func offlineNote(_ inventory: Inventory) -> String {
        guard let link = try? inventory.teamLink() else { return "" }
        let counts = try? inventory.teamCounts()
        let queued = counts.map { $0.outbox == 1 ? " 1 edit is queued." : " \($0.outbox) edits are queued." } ?? ""
        return "eSSH works from the local copy (synced \(ago(link.lastSync))).\(counts?.outbox ?? 0 > 0 ? queued : "")"
    }

    /// "3 h ago", or "never".
    static func ago(_ date: Date?, now: Date = Date()) -> String {
        guard let date else { return "never" }
        let seconds = max(0, now.timeIntervalSince(date))
        if seconds < 5 { return "just now" }
        return DurationText.text(seconds, .wholeUnits) + " ago"
    }

    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        TerminalOutput.write(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n")
    }

    /// The JSON of a sync.
    struct SyncJSON: Encodable {
        var revision: Int64
        var role: String
        var pushed: Int
        var added, changed, removed: [String]
        var renamed: [String]
        var conflicts: [TeamConflict]
        var refused: [Refusal]
        var published: Int

        struct Refusal: Encodable { var name, reason: String }

        init(_ report: TeamSync.Report) {
            revision = report.revision
            role = report.role.rawValue
            pushed = report.pushed
            added = report.applied.added
            changed = report.applied.changed
            removed = report.applied.removed
            renamed = report.applied.renamed.map(\.localName)
            conflicts = report.conflicts
            refused = report.refused.map { Refusal(name: $0.name, reason: $0.reason.message) }
            published = report.published
        }
    }


    /// Says what a sync did, in sentences.
    static func describe(_ report: TeamSync.Report, target: String) {
        var parts: [String] = []
        let applied = report.applied
        if !applied.added.isEmpty { parts.append("\(applied.added.count) added") }
        if !applied.changed.isEmpty { parts.append("\(applied.changed.count) changed") }
        if !applied.removed.isEmpty { parts.append("\(applied.removed.count) removed") }
        if report.pushed > 0 { parts.append("\(report.pushed) edit\(report.pushed == 1 ? "" : "s") pushed") }
        if report.published > 0 { parts.append("\(report.published) of your checks published") }
        if applied.checks > 0 { parts.append("\(applied.checks) published check results") }
        TerminalOutput.line("Synced with \(target) (revision \(report.revision), \(report.role.rawValue))"
            + (parts.isEmpty ? ": nothing new." : ": " + parts.joined(separator: ", ") + "."))
        for rename in applied.renamed {
            TerminalOutput.line("  The team's \(rename.teamName) is shown as \(rename.localName): one of your own "
                + "servers has that name.")
        }
        for refusal in report.refused {
            TerminalOutput.line("  Not pushed (\(refusal.name)): \(refusal.reason.message) Your change was undone "
                + "here.")
        }
        if !report.conflicts.isEmpty {
            TerminalOutput.line("  \(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s"): "
                + "someone else changed the same field; nothing was overwritten. See `essh team conflicts`.")
        }
    }

    // MARK: Subcommands

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or update eSSH's schema and roles in a PostgreSQL database (an administrator, once).")
        @Argument(help: ArgumentHelp("The database: postgres://USER@HOST[:PORT]/DATABASE[?sslmode=verify-full].",
                                     valueName: "URL"))
        var url: String
        @OptionGroup var server: ServerOptions

        func run() throws {
            let parsed = try TeamURL(url)
            let connection = try server.access.openForAdministration(url)
            let versions = try TeamSchema.install(on: connection)
            if server.json {
                struct Result: Encodable { var from, to: Int; var editorRole, memberRole: String }
                try TeamCommand.printJSON(Result(from: versions.from, to: versions.to,
                                                 editorRole: TeamSchema.editorRole, memberRole: TeamSchema.memberRole))
                return
            }
            if versions.from == versions.to {
                TerminalOutput.line("\(parsed.display) already has eSSH's team schema (version \(versions.to)).")
            } else {
                TerminalOutput.line("Made eSSH's team schema (version \(versions.to)) in \(parsed.display).")
            }
            TerminalOutput.line("""
                Next, for each person (as an administrator, in psql):
                  GRANT \(TeamSchema.editorRole) TO ana;   -- may add, change and remove shared servers
                  GRANT \(TeamSchema.memberRole) TO bob;   -- may read them and publish check results
                then each runs: essh team join \(url)
                """)
        }
    }

    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Link this inventory to a team database and fetch its servers.")
        @Argument(help: ArgumentHelp("The team database URL (no password in it).", valueName: "URL"))
        var url: String
        @Flag(help: "Publish your check results of shared servers to the team.")
        var publishChecks = false
        @OptionGroup var server: ServerOptions

        func run() throws {
            let parsed = try TeamURL(url)
            let inventory = try server.database.open()
            if let link = try inventory.teamLink(), link.url != parsed.text {
                throw TeamError(.notLinked, "This inventory is already linked to \(link.url); run `essh team leave` "
                    + "first to join another team.")
            }
            let team = try server.access.open(parsed.text)
            if try inventory.teamLink() == nil {
                try inventory.saveTeamLink(TeamLink(url: parsed.text, member: team.connection.user, role: team.role,
                                                    publishChecks: publishChecks))
            }
            let report = try TeamSync.run(team, inventory: inventory)
            if server.json { return try TeamCommand.printJSON(SyncJSON(report)) }
            TerminalOutput.line("Joined \(parsed.display) as \(team.connection.user) (\(team.role.rawValue))"
                + (team.connection.usesTLS ? ", over TLS." : "."))
            TeamCommand.describe(report, target: parsed.display)
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say which team this inventory follows, when it last synced, and what waits to be pushed.")
        @OptionGroup var server: ServerOptions
        @Flag(help: "Only what the local copy knows: do not try to reach the team database.")
        var offline = false

        struct Report: Encodable {
            var url, member, role: String
            var revision: Int64
            var lastSync, lastAttempt: Date?
            var lastError: String?
            var reachable: Bool?
            var servers, queued, conflicts: Int
            var publishChecks: Bool
        }

        func run() throws {
            let inventory = try server.database.open()
            var link = try TeamCommand.link(inventory)
            var reachable: Bool?
            var problem: String?
            if !offline {
                do {
                    let team = try server.access.open(link.url)
                    reachable = true
                    if team.role != link.role {
                        link.role = team.role
                        try inventory.saveTeamLink(link)
                    }
                } catch let error as TeamError {
                    reachable = false
                    problem = error.message
                    if error.isOffline { try? inventory.noteTeamSyncFailure(error.message, at: Date()) }
                }
            }
            let counts = try inventory.teamCounts()
            let report = Report(url: link.url, member: link.member, role: link.role.rawValue, revision: link.revision,
                                lastSync: link.lastSync, lastAttempt: link.lastAttempt,
                                lastError: problem ?? link.lastError, reachable: reachable,
                                servers: counts.shared, queued: counts.outbox, conflicts: counts.conflicts,
                                publishChecks: link.publishChecks)
            if server.json { return try TeamCommand.printJSON(report) }
            let target = (try? TeamURL(link.url).display) ?? link.url
            TerminalOutput.line("Team: \(target), as \(link.member) (\(link.role.rawValue))")
            let reach = switch reachable {
            case true?: "the server is reachable"
            case false?: "the server is unreachable"
            case nil: "not checked (--offline)"
            }
            TerminalOutput.line("Synced: \(TeamCommand.ago(link.lastSync)) (revision \(link.revision)); \(reach)")
            if let problem = report.lastError, reachable != true { TerminalOutput.line("  \(problem)") }
            TerminalOutput.line("Shared servers: \(counts.shared); queued edits: \(counts.outbox); conflicts: "
                + "\(counts.conflicts)" + (counts.conflicts > 0 ? " (essh team conflicts)" : ""))
            TerminalOutput.line("Publishing check results: \(link.publishChecks ? "on" : "off")")
        }
    }

    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push queued edits and fetch what others changed since the last sync.")
        @OptionGroup var server: ServerOptions

        func run() throws {
            let inventory = try server.database.open()
            let (link, team) = try server.openLinked(inventory)
            let report = try TeamSync.run(team, inventory: inventory)
            if server.json {
                try TeamCommand.printJSON(SyncJSON(report))
            } else {
                TeamCommand.describe(report, target: (try? TeamURL(link.url).display) ?? link.url)
            }
            // A conflict or a refused edit fails the command in JSON too: a script must not take it for done.
            if !report.conflicts.isEmpty || !report.refused.isEmpty { throw CommandFailure(.failed) }
        }
    }

    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push the edits made offline (an editor's), without fetching others' changes.")
        @OptionGroup var server: ServerOptions

        func run() throws {
            let inventory = try server.database.open()
            let (_, team) = try server.openLinked(inventory)
            let report = try TeamSync.push(team, inventory: inventory)
            if server.json {
                try TeamCommand.printJSON(SyncJSON(report))
            } else {
                TerminalOutput.line(report.pushed == 0 && report.conflicts.isEmpty && report.refused.isEmpty
                    ? "Nothing was waiting to be pushed."
                    : "Pushed \(report.pushed) edit\(report.pushed == 1 ? "" : "s").")
                TeamCommand.describe(report, target: team.url.display)
            }
            if !report.conflicts.isEmpty || !report.refused.isEmpty { throw CommandFailure(.failed) }
        }
    }

    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show fields you and someone else changed differently, side by side; settle them.",
            subcommands: [Show.self, Resolve.self], defaultSubcommand: Show.self)

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "List the conflicts.")
            @OptionGroup var database: DatabaseOptions
            @Flag(help: "Print JSON.")
            var json = false

            func run() throws {
                let inventory = try database.open()
                _ = try TeamCommand.link(inventory)
                let conflicts = try inventory.teamConflicts()
                if json {
                    struct Listing: Encodable { var conflicts: [TeamConflict] }
                    return try TeamCommand.printJSON(Listing(conflicts: conflicts))
                }
                if conflicts.isEmpty { return TerminalOutput.line("No conflicts.") }
                var table = TextTable(headers: ["SERVER", "FIELD", "BASE", "YOURS", "TEAM'S", "BY"])
                for conflict in conflicts {
                    table.add([.init(text: conflict.name), .init(text: conflict.field.rawValue),
                               .init(text: conflict.base), .init(text: conflict.mine),
                               .init(text: conflict.theirsDeleted ? "(removed)" : conflict.theirs),
                               .init(text: conflict.theirsBy + " r\(conflict.theirsRevision)")])
                }
                TerminalOutput.write(table.render(colour: TerminalOutput.colourOnStdout))
                TerminalOutput.line("Keep yours: essh team conflicts resolve NAME --mine; keep the team's: --theirs.")
            }
        }

        struct Resolve: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Keep your value (queued to be pushed) or the team's for a server's conflicts.")
            @Argument(help: "The server's name as the conflict shows it.")
            var name: String
            @Option(help: ArgumentHelp("Only this field (name, host, port, user, jump, tags, os).",
                                       valueName: "FIELD"))
            var field: String?
            @Flag(help: "Keep your value.")
            var mine = false
            @Flag(help: "Keep the team's value.")
            var theirs = false
            @OptionGroup var database: DatabaseOptions
            @Flag(help: "Print JSON: the conflicts settled.")
            var json = false

            func validate() throws {
                if mine == theirs { throw ValidationError("Give --mine or --theirs.") }
                if let field, SharedField(rawValue: field) == nil {
                    throw ValidationError("--field takes one of: "
                        + SharedField.allCases.map(\.rawValue).joined(separator: ", ") + ".")
                }
            }

            func run() throws {
                let inventory = try database.open()
                _ = try TeamCommand.link(inventory)
                let matching = try inventory.teamConflicts().filter {
                    $0.name == name && (field == nil || $0.field.rawValue == field)
                }
                guard !matching.isEmpty else {
                    throw CommandFailure(.badInput, "No conflict of \(name)\(field.map { " on \($0)" } ?? "") "
                        + "(`essh team conflicts` lists them).")
                }
                for conflict in matching {
                    try inventory.resolveTeamConflict(uid: conflict.uid, field: conflict.field, keepMine: mine)
                }
                if json {
                    struct Result: Encodable { var kept: String; var resolved: [TeamConflict] }
                    return try TeamCommand.printJSON(Result(kept: mine ? "mine" : "theirs", resolved: matching))
                }
                TerminalOutput.line(mine
                    ? "Kept your value\(matching.count == 1 ? "" : "s"); `essh team sync` pushes it."
                    : "Kept the team's value\(matching.count == 1 ? "" : "s").")
            }
        }
    }

    struct Pin: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pin a shared server's host key for the team (an editor): members trust it without asking, "
                + "and refuse any other.")
        @Argument(help: "The shared server.")
        var name: String
        @Option(help: ArgumentHelp("Take the key from this file: known_hosts lines, or a public key such as "
            + "/etc/ssh/ssh_host_ed25519_key.pub (default: the key your known_hosts holds for the server).",
            valueName: "FILE"))
        var file: String?
        @OptionGroup var server: ServerOptions

        func run() throws {
            let inventory = try server.database.open()
            let saved = try inventory.server(named: name)
            guard saved.isShared else {
                throw CommandFailure(.badInput, "\(name) is your own server, not the team's: only shared servers' "
                    + "keys are pinned.")
            }
            let keys = try hostKeys(for: saved)
            guard !keys.isEmpty else {
                throw CommandFailure(.badInput, file.map { "\($0) holds no host key for \(saved.host):\(saved.port)." }
                    ?? "Your known_hosts holds no key for \(saved.host):\(saved.port): connect once "
                        + "(`essh exec \(name) true`) and accept its key, or give --file.")
            }
            let (_, team) = try server.openLinked(inventory)
            for key in keys {
                try team.pin(TeamPin(host: saved.host, port: saved.port, keyType: key.type,
                                     key: Data(key.blob).base64EncodedString(), fingerprint: key.fingerprint))
            }
            let report = try TeamSync.run(team, inventory: inventory)
            if server.json { return try TeamCommand.printJSON(SyncJSON(report)) }
            for key in keys {
                TerminalOutput.line("Pinned \(key.type) \(key.fingerprint) for \(name) "
                    + "(\(KnownHosts.lookupName(host: saved.host, port: saved.port))).")
            }
        }

        private func hostKeys(for saved: Server) throws -> [HostKey] {
            let path = file ?? server.database.connectionContext.knownHostsFile(explicit: nil)
            if let file {
                guard FileManager.default.isReadableFile(atPath: file) else {
                    throw FileSystemError(path: file, errno: errno == 0 ? ENOENT : errno, action: "read")
                }
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                let publicKeys = text.split(whereSeparator: \.isNewline).compactMap { line -> HostKey? in
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard fields.count >= 2, let blob = Data(base64Encoded: String(fields[1])),
                          let key = HostKey(blob: [UInt8](blob)), key.type == fields[0] else { return nil }
                    return key
                }
                if !publicKeys.isEmpty { return publicKeys }
            }
            let known = try KnownHosts(userFile: path)
            var keys: [HostKey] = []
            for entry in known.entries(host: saved.host, port: saved.port) where entry.marker == .none {
                if !keys.contains(entry.key) { keys.append(entry.key) }
            }
            return keys
        }
    }

    struct Unpin: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the team's host-key pins of a shared server.")
        @Argument(help: "The shared server.")
        var name: String
        @OptionGroup var server: ServerOptions

        func run() throws {
            let inventory = try server.database.open()
            let saved = try inventory.server(named: name)
            let (_, team) = try server.openLinked(inventory)
            let count = try team.unpin(host: saved.host, port: saved.port)
            let report = try TeamSync.run(team, inventory: inventory)
            if server.json {
                struct Result: Encodable { var server: String; var removed: Int; var sync: SyncJSON }
                return try TeamCommand.printJSON(Result(server: name, removed: count, sync: SyncJSON(report)))
            }
            TerminalOutput.line(count == 0 ? "\(name) had no pinned key."
                : "Removed " + CountText.text(count, "pin") + " of \(name).")
        }
    }

    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish your check results of shared servers to the team, or stop (on|off).")
        @Argument(help: "on or off.")
        var state: String
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            if state != "on" && state != "off" { throw ValidationError("Say on or off.") }
        }

        func run() throws {
            let inventory = try database.open()
            var link = try TeamCommand.link(inventory)
            link.publishChecks = state == "on"
            try inventory.saveTeamLink(link)
            if json {
                struct Result: Encodable { var publishChecks: Bool }
                return try TeamCommand.printJSON(Result(publishChecks: link.publishChecks))
            }
            TerminalOutput.line(link.publishChecks
                ? "Your check results of shared servers will be published at each sync."
                : "Your check results stay on this machine.")
        }
    }

    struct Leave: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unlink this inventory from the team: its servers leave your list (or stay as your own).")
        @Flag(help: "Keep the team's servers as your own copies.")
        var keep = false
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let inventory = try database.open()
            let link = try TeamCommand.link(inventory)
            let counts = try inventory.teamCounts()
            if counts.outbox > 0 && !keep {
                TerminalOutput.writeError("essh: \(counts.outbox) queued edit(s) were never pushed; they are dropped "
                    + "with the team's servers (use --keep to keep the servers as your own).\n")
            }
            let count = try inventory.leaveTeam(keepCopies: keep)
            if json {
                struct Result: Encodable { var url: String; var kept: Bool; var servers, droppedEdits: Int }
                return try TeamCommand.printJSON(Result(url: link.url, kept: keep, servers: count,
                                                        droppedEdits: keep ? 0 : counts.outbox))
            }
            TerminalOutput.line("Left \((try? TeamURL(link.url).display) ?? link.url): "
                + (keep ? CountText.text(count, "server") + (count == 1 ? " is" : " are") + " now your own."
                    : CountText.text(count, "shared server") + " removed from your list."))
        }
    }
}

extension TeamAccess {
    /// A connection for `essh team init` (no schema yet, so no role check), with the same sources of a password.
    func openForAdministration(_ url: String) throws -> PGConnection {
        try login(url) { password in
            try PGConnection.connect(url: url, password: password, timeout: timeout)
        }
    }
}
