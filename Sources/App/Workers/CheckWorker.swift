import AppCore
import Foundation
import Inventory
import Operations
import Reachability
import SSH

/// Online checks of the saved servers on their own queue (`OnlineCheck`: direct servers through Reachability's epoll
/// loop, servers behind jump hosts through their bastions, as `essh check` does), each result posted as it comes,
/// then all of them recorded in the database.
final class CheckWorker: Sendable {
    private let inventory: Inventory
    private let post: @Sendable (Message) -> Void
    /// How a server's jump chain is expanded (saved hops looked up in the same database; known_hosts as set).
    private let context: ConnectionProfile.Context
    private let queue = DispatchQueue(label: "essh.app.check")

    init(inventory: Inventory, post: @escaping @Sendable (Message) -> Void,
         context: ConnectionProfile.Context = ConnectionProfile.Context()) {
        self.inventory = inventory
        self.post = post
        self.context = context
    }

    /// Checks servers (by row id) with this timeout in seconds.
    func check(_ targets: [Int64: CheckTarget], timeout: Double) {
        queue.async { [self] in run(targets, timeout: timeout) }
    }

    private func run(_ targets: [Int64: CheckTarget], timeout: Double) {
        let ids = targets.keys.sorted()
        let list = ids.compactMap { targets[$0] }
        let jumps = Self.jumps(ids, inventory: inventory, context: context)
        let targets = zip(ids, list).map { id, target in
            OnlineCheck.Target(host: target.host, port: target.port, jumps: jumps[id] ?? [])
        }
        do throws(ReachabilityError) {
            let checker = try OnlineCheck(options: Checker.Options(timeout: timeout))
            let outcomes = try checker.check(targets) { [self] outcome in
                post(.checkResult(serverId: ids[outcome.index], status: outcome.status,
                                  latencyMs: outcome.latencyMs, at: Date()))
            }
            let now = Date()
            let results = outcomes.map {
                CheckResult(serverId: ids[$0.index], status: $0.status, latencyMs: $0.latencyMs,
                            banner: $0.banner, error: $0.error, checkedAt: now)
            }
            var failure: String?
            do throws(InventoryError) { try inventory.recordCheckResults(results) } catch { failure = error.message }
            post(.checkFinished(error: failure, at: now))
        } catch {
            post(.checkFinished(error: "The check could not run: \(error.message)", at: Date()))
        }
    }

    /// The jump hosts of the saved servers `ids` that have a chain, as a connection would pass through them (the
    /// known_hosts setting as stored); a server whose options cannot be made is checked directly, and the check says
    /// what it finds.
    static func jumps(_ ids: [Int64], inventory: Inventory, context: ConnectionProfile.Context) -> [Int64: [ConnectOptions]] {
        guard let servers = try? inventory.servers() else { return [:] }
        var context = context
        if let stored = try? inventory.allSettings() { context.knownHostsSetting = Settings(stored: stored).knownHosts }
        let wanted = Set(ids)
        let behind = servers.filter { !$0.jump.isEmpty && $0.id.map(wanted.contains) == true }
        var found: [Int64: [ConnectOptions]] = [:]
        for (server, jumps) in zip(behind, OnlineCheck.Target.jumps(of: behind, context: context)) {
            if let id = server.id { found[id] = jumps }
        }
        return found
    }
}
