import ArgumentParser
import Basics
import Foundation
import Inventory
import Operations
import Reachability
import SSH

/// `essh check`: which saved servers are up, all checked at once.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check which servers answer SSH (exit 0 when every checked server is online, 1 otherwise).",
        discussion: """
            Each server is resolved, connected to on every address without blocking, and its SSH banner read; \
            thousands are checked at once, so the whole run takes about one timeout. Statuses: online, not-ssh \
            (port open, no SSH banner), refused, timed-out, unreachable, dns-error. Results of saved servers are \
            saved and shown by `essh servers list`. Servers are picked as by every command (see README's selectors): \
            names, patterns (web[01-20], db*), tag:TAG, !NAME or --exclude to leave some out, --tag, a hosts file \
            (-h FILE); without any, every saved server. A word that is no saved server is checked as an unsaved \
            host, HOST[:PORT] (an IPv6 address as [::1]:2222), and nothing is stored for it. A server saved behind \
            jump hosts is checked through its bastion: its banner is read over a channel the bastion opens, and the \
            status is what the bastion saw.
            """,
        helpNames: SelectionOptions.helpNames)

    @OptionGroup var database: DatabaseOptions
    @Flag(help: ArgumentHelp("Print JSON: {\"results\":[{name, host, port, status, latency_ms, banner, error, via}]} "
                             + "(via: the jump host a server was checked through, null when direct)."))
    var json = false
    @Option(help: ArgumentHelp("Seconds to wait for each server's connection and banner.", valueName: "SECONDS"))
    var timeout: Double = 3
    @Option(help: "Most connections in flight at once (default: as many as the open-file limit allows).")
    var concurrency: Int?
    @OptionGroup var selection: SelectionOptions
    @Argument(help: ArgumentHelp("Server names, patterns (web[01-20], db*), tag:TAG, !NAME to leave out, or unsaved "
                                 + "hosts as HOST[:PORT] (default: every saved server).",
                                 valueName: "NAME | PATTERN | tag:TAG | !SELECTOR | HOST[:PORT]"),
              completion: ServerCompletion.selectors)
    var selectors: [String] = []

    func validate() throws {
        guard timeout > 0 && timeout <= 3600 else {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds, not \(timeout).")
        }
        if let concurrency, concurrency < 1 {
            throw ValidationError("--concurrency must be at least 1, not \(concurrency).")
        }
        _ = try selection.selectors(selectors)
    }

    func run() throws {
        // Only read: checking unsaved hosts never creates a database.
        let inventory = try database.openExisting()
        let entries = try select(inventory)
        if entries.isEmpty {
            throw CommandFailure(.badInput, "No saved servers to check. Add one with `essh servers add NAME --host HOST` "
                                 + "or import ~/.ssh/config." + (inventory == nil ? " " + database.missingNote : ""))
        }
        // Direct servers go through Reachability's loop, servers behind jump hosts through their bastion.
        let checker = try OnlineCheck(options: .init(timeout: timeout, concurrency: concurrency))
        // Servers that timed out or stayed silent last time will likely wait out the whole timeout again: starting
        // them first lets their wait overlap the connects to everyone else.
        let lastChecks = (try? inventory?.lastCheckResults()) ?? [:]
        let order = entries.indices.sorted { a, b in
            let slowA = Self.expectedSlow(entries[a].server?.id.flatMap { lastChecks[$0] })
            let slowB = Self.expectedSlow(entries[b].server?.id.flatMap { lastChecks[$0] })
            return slowA != slowB ? slowA : a < b
        }
        let progress = CountProgress(total: entries.count, enabled: TerminalOutput.stderrIsTerminal) {
            "checked \($0)/\($1) · \($2) online"
        }
        // Results are kept for saved servers only.
        let recorder = inventory.map(CheckRecorder.init(inventory:))
        let outcomes: [CheckOutcome]
        do {
            // Jump hosts named by saved servers are looked up as `essh exec` looks them up.
            let context = database.connectionContext
            let saved = order.compactMap { entries[$0].server }
            var chains = OnlineCheck.Target.jumps(of: saved, context: context).makeIterator()
            let targets = order.map { i in
                OnlineCheck.Target(host: entries[i].host, port: entries[i].port,
                                   jumps: entries[i].server == nil ? [] : chains.next() ?? [])
            }
            let checked = try checker.check(targets) { outcome in
                progress.record(good: outcome.status == .online)
                if let id = entries[order[outcome.index]].server?.id {
                    recorder?.add(CheckResult(serverId: id, status: outcome.status,
                                              latencyMs: outcome.latencyMs, banner: outcome.banner,
                                              error: outcome.error, checkedAt: Date()))
                }
            }
            var inEntryOrder = checked
            for outcome in checked { inEntryOrder[order[outcome.index]] = outcome }
            outcomes = inEntryOrder
        } catch {
            progress.clear()
            throw error
        }
        progress.clear()
        try recorder?.finish()
        let rows = zip(entries, outcomes).map { entry, outcome in
            var outcome = outcome
            // A word that is no saved server was checked as a host name; when no such host exists, say both.
            if entry.server == nil, outcome.status == .dnsError, !entry.typedAsAddress {
                outcome.error = (outcome.error.map { $0 + "; " } ?? "") + "and no saved server is named '\(entry.name)'"
            }
            return CheckReport.Row(name: entry.name, host: entry.host, port: entry.port, outcome: outcome)
        }
        TerminalOutput.write(json ? try CheckReport.json(rows) + "\n"
                                  : CheckReport.table(rows, colour: TerminalOutput.colourOnStdout))
        if outcomes.contains(where: { $0.status != .online }) { throw CommandFailure(.failed) }
    }

    private static func expectedSlow(_ last: CheckResult?) -> Bool {
        last?.status == .timeout || last?.status == .notSSH
    }

    /// What the selection picks, in order, each once (`ServerSelection`, as every command picks): saved servers, and
    /// words that name none as unsaved hosts, `HOST[:PORT]` (`[v6]:port` for an IPv6 address; a user is ignored);
    /// every saved server when nothing picks. Two words for one address are checked once.
    private func select(_ inventory: Inventory?) throws -> [CheckEntry] {
        let picks = try SelectionOptions.resolve(try selection.selection(selectors), store: inventory,
                                                 database: database, hosts: true, defaultAll: true)
        var chosen: [CheckEntry] = []
        var seen = Set<String>()
        for pick in picks {
            let entry: CheckEntry
            switch pick {
            case .saved(let server): entry = CheckEntry(server: server)
            case .host(let word): entry = try CheckEntry(typed: word)
            }
            if seen.insert(entry.key).inserted { chosen.append(entry) }
        }
        return chosen
    }
}

/// One thing `essh check` checks: a saved server (its result is stored) or a host typed on the command line.
struct CheckEntry {
    /// The saved name, or the selector as typed.
    var name: String
    var host: String
    var port: Int
    /// The saved server, nil for a typed host.
    var server: Server?
    /// Whether the typed selector was plainly an address (a port, brackets, an IP), not a word that could be a
    /// mistyped saved name.
    var typedAsAddress = false

    init(server: Server) {
        name = server.name
        host = server.host
        port = server.port
        self.server = server
    }

    /// `HOST[:PORT]`, `[v6]:port`, `user@host` (the user plays no part in a check).
    init(typed selector: String) throws(InventoryError) {
        let destination: Destination
        do {
            destination = try Destination(parsing: selector)
        } catch {
            throw InventoryError(.invalidValue, "", """
                '\(selector)' is neither a saved server nor a HOST[:PORT]: \(error.message)
                """)
        }
        name = selector
        host = destination.host
        port = destination.port ?? 22
        typedAsAddress = destination.port != nil || destination.host.contains(":")
            || destination.host.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// Saved servers are one each by name; typed hosts by address.
    var key: String { server.map { "saved " + $0.name } ?? "host \(host) \(port)" }
}
