import ArgumentParser
import Foundation
import Inventory

extension ServersCommand {
    /// `essh servers show NAME [--json]`: everything stored about one server.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show everything stored about a server: address, login, tags, note, algorithm lists, dates, "
                + "the last check and the last connection.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "Print JSON (the object `servers list --json` gives for this server).")
        var json = false
        @Argument(help: "The server's name.", completion: ServerCompletion.names)
        var name: String

        func run() throws {
            guard let inventory = try database.openExisting() else {
                throw InventoryError(.unknownServer, "", """
                    No saved server is named '\(name)': there is no database at \(database.path) yet. \
                    `essh servers add \(name) --host HOST` saves one.
                    """)
            }
            let (server, checks) = (try inventory.server(named: name), try inventory.checkResults(serverNamed: name))
            let last = checks.max { $0.checkedAt < $1.checkedAt }
            TerminalOutput.write(json ? try ServerFormatting.encode(ServerFormatting.row(server, lastCheck: last)) + "\n"
                                      : ServerDetails.text(server, lastCheck: last, colour: TerminalOutput.colourOnStdout))
        }
    }
}

/// One server as `servers show` prints it: one `label  value` line per field, values sanitised. Pure.
enum ServerDetails {
    static func text(_ server: Server, lastCheck: CheckResult?, now: Date = Date(), colour: Bool) -> String {
        var out = ""
        func add(_ label: String, _ value: String, colour code: String? = nil) {
            // Cells sanitise: names, notes, banners and errors came from people, files and servers.
            let cell = TextTable.Cell(text: value, colour: code)
            let shown = colour && code != nil ? "\u{1B}[\(code!)m\(cell.text)\u{1B}[0m" : cell.text
            out += label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + shown + "\n"
        }
        add("name", server.name)
        add("address", ServerFormatting.address(server))
        add("host", server.host)
        add("port", String(server.port))
        add("user", server.user ?? "(the local user)")
        add("auth", server.auth.rawValue)
        add("key", server.keyPath ?? "-")
        add("os", server.os.rawValue)
        add("credential", server.credential.text)
        if let identity = server.lastIdentity { add("last login", identity) }
        add("jump", server.jump.isEmpty ? "- (direct)" : server.jump)
        if server.forwards.isEmpty { add("tunnels", "-") }
        for (n, forward) in server.forwards.enumerated() { add(n == 0 ? "tunnels" : "", forward) }
        if !server.forwards.isEmpty {
            add("autostart", server.autostart ? "yes (the interface starts the tunnels)" : "no")
        }
        add("tags", server.tags.isEmpty ? "-" : server.tags.joined(separator: ", "))
        add("note", server.note.isEmpty ? "-" : server.note)
        let lines = server.algorithms.configLines
        if lines.isEmpty { add("algorithms", "eSSH's defaults") }
        for (n, line) in lines.enumerated() { add(n == 0 ? "algorithms" : "", "\(line.keyword) \(line.value)") }
        add("created", date(server.createdAt, now: now))
        add("updated", date(server.updatedAt, now: now))
        add("last connected", server.lastConnectedAt.map { date($0, now: now) } ?? "never")
        if let check = lastCheck {
            let latency = check.latencyMs.map { String(format: ", %.1f ms", $0) } ?? ""
            add("last check", "\(check.status.word)\(latency), \(date(check.checkedAt, now: now))",
                colour: StatusColour.code(for: check.status))
            if let detail = check.status == .online ? check.banner : check.error, !detail.isEmpty {
                add("", detail)
            }
        } else {
            add("last check", "never")
        }
        return out
    }

    /// The widest label ("last connected").
    static let labelWidth = 14

    /// `2026-11-24 10:00:00 (5m ago)`, in local time.
    static func date(_ date: Date, now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return "\(formatter.string(from: date)) (\(ServerFormatting.relative(date, now: now)))"
    }
}
