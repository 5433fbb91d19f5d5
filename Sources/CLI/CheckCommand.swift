import ArgumentParser
import Foundation
import Inventory
import Reachability

/// `essh check`: which saved servers are up, all checked at once.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check which saved servers answer SSH (exit 0 when every checked server is online, 1 otherwise).",
        discussion: """
            Each server is resolved, connected to on every address without blocking, and its SSH banner read; \
            thousands are checked at once, so the whole run takes about one timeout. Statuses: online, not-ssh \
            (port open, no SSH banner), refused, timeout, unreachable, dns-error. Results are saved and shown by \
            `essh servers list`.
            """)

    @OptionGroup var database: DatabaseOptions
    @Flag(help: "Print JSON: {\"results\":[{name, host, port, status, latency_ms, banner, error}]}.")
    var json = false
    @Option(help: ArgumentHelp("Seconds to wait for each server's connection and banner.", valueName: "SECONDS"))
    var timeout: Double = 3
    @Option(help: "Most connections in flight at once (default: as many as the open-file limit allows).")
    var concurrency: Int?
    @Argument(help: ArgumentHelp("Server names or tag:TAG (default: every saved server).", valueName: "NAME | tag:TAG"))
    var selectors: [String] = []

    func validate() throws {
        guard timeout > 0 && timeout <= 3600 else {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds, not \(timeout).")
        }
        if let concurrency, concurrency < 1 {
            throw ValidationError("--concurrency must be at least 1, not \(concurrency).")
        }
    }

    func run() throws {
        let inventory = try database.open()
        let servers = try select(inventory)
        if servers.isEmpty {
            throw CommandFailure(.badInput, "No saved servers to check. Add one with `essh servers add NAME --host HOST` "
                                 + "or import ~/.ssh/config.")
        }
        let checker = try Checker(options: .init(timeout: timeout, concurrency: concurrency))
        // Servers that timed out or stayed silent last time will likely wait out the whole timeout again: starting
        // them first lets their wait overlap the connects to everyone else.
        let lastChecks = (try? inventory.lastCheckResults()) ?? [:]
        let order = servers.indices.sorted { a, b in
            let slowA = Self.expectedSlow(servers[a].id.flatMap { lastChecks[$0] })
            let slowB = Self.expectedSlow(servers[b].id.flatMap { lastChecks[$0] })
            return slowA != slowB ? slowA : a < b
        }
        let progress = CountProgress(total: servers.count, enabled: TerminalOutput.stderrIsTerminal) {
            "checked \($0)/\($1) · \($2) online"
        }
        let recorder = CheckRecorder(inventory: inventory)
        let outcomes: [CheckOutcome]
        do {
            let targets = order.map { CheckTarget(host: servers[$0].host, port: servers[$0].port) }
            let checked = try checker.check(targets) { outcome in
                progress.record(good: outcome.status == .online)
                if let id = servers[order[outcome.index]].id {
                    recorder.add(CheckResult(serverId: id, status: outcome.status.rawValue,
                                             latencyMs: outcome.latencyMs, banner: outcome.banner,
                                             error: outcome.error, checkedAt: Date()))
                }
            }
            var inServerOrder = checked
            for outcome in checked { inServerOrder[order[outcome.index]] = outcome }
            outcomes = inServerOrder
        } catch {
            progress.clear()
            throw error
        }
        progress.clear()
        try recorder.finish()
        let rows = zip(servers, outcomes).map { CheckReport.Row(server: $0, outcome: $1) }
        TerminalOutput.write(json ? try CheckReport.json(rows) + "\n"
                                  : CheckReport.table(rows, colour: TerminalOutput.colourOnStdout))
        if outcomes.contains(where: { $0.status != .online }) { throw CommandFailure(.failed) }
    }

    private static func expectedSlow(_ last: CheckResult?) -> Bool {
        last?.status == "timeout" || last?.status == "not-ssh"
    }

    /// The servers named by the selectors, in order, each once; every name must exist and every tag match one.
    private func select(_ inventory: Inventory) throws(InventoryError) -> [Server] {
        if selectors.isEmpty { return try inventory.servers() }
        var chosen: [Server] = []
        var seen = Set<String>()
        for selector in selectors {
            let matches: [Server]
            if selector.hasPrefix("tag:") {
                let tag = String(selector.dropFirst(4))
                matches = try inventory.servers(taggedWith: tag)
                if matches.isEmpty {
                    throw InventoryError(.unknownServer, "", "No saved server has the tag '\(tag)'.")
                }
            } else {
                matches = [try inventory.server(named: selector)]
            }
            for server in matches where seen.insert(server.name).inserted { chosen.append(server) }
        }
        return chosen
    }
}
