import AppCore
import Basics
import Foundation
import Inventory

/// The database: servers, settings and history, on one serial queue (GRDB's queue is safe from any thread; one
/// queue keeps the writes in the order the interface asked for them).
final class StoreWorker: Sendable {
    private let inventory: Inventory
    private let post: @Sendable (Message) -> Void
    private let queue = DispatchQueue(label: "essh.app.store")

    init(inventory: Inventory, post: @escaping @Sendable (Message) -> Void) {
        self.inventory = inventory
        self.post = post
    }

    /// Reads servers, last check results and settings.
    func load() {
        queue.async { [self] in
            do throws(InventoryError) {
                let servers = try inventory.servers()
                let results = try inventory.lastCheckResults()
                let settings = try inventory.allSettings()
                post(.loaded(servers: servers, checks: results, settings: settings))
            } catch {
                post(.storeFailed(error.message))
            }
        }
    }

    /// Adds `draft`, or replaces the server named `replacing` with it.
    func save(_ draft: ServerDraft, replacing: String?) {
        queue.async { [self] in
            do throws(InventoryError) {
                if let replacing {
                    let changes = ServerChanges(name: draft.name, host: draft.host, port: draft.port,
                                                user: draft.user ?? "", auth: draft.auth, keyPath: draft.keyPath ?? "",
                                                os: draft.os, tags: draft.tags, note: draft.note,
                                                algorithms: AlgorithmChanges(replacingWith: draft.algorithms))
                    try inventory.updateServer(named: replacing, changes)
                } else {
                    try inventory.addServer(draft)
                }
                post(.serverSaved(draft.name))
            } catch {
                post(.serverSaveFailed(error.message))
            }
        }
    }

    func delete(_ name: String) {
        queue.async { [self] in
            do throws(InventoryError) {
                try inventory.removeServer(named: name)
                post(.serverDeleted(name))
            } catch { post(.storeFailed(error.message)) }
        }
    }

    func saveSettings(_ values: [String: String]) {
        queue.async { [self] in
            do throws(InventoryError) {
                for (key, value) in values { try inventory.setSetting(key, to: value) }
                post(.settingsSaved)
            } catch { post(.storeFailed(error.message)) }
        }
    }

    /// Notes when the server was last connected to, and the OS found (best effort: nothing to tell the person).
    func recordConnection(_ name: String, os: ServerOS?) {
        queue.async { [self] in try? inventory.recordConnection(named: name, os: os) }
    }

    /// The server's command history, oldest first, repeats in a row folded.
    func loadHistory(_ name: String) {
        queue.async { [self] in
            let entries = (try? inventory.history(serverNamed: name, limit: 500)) ?? []
            var commands: [String] = []
            for entry in entries.reversed() where commands.last != entry.command { commands.append(entry.command) }
            post(.history(commands))
        }
    }

    func appendHistory(server: String, command: String, status: Int?) {
        queue.async { [self] in
            _ = try? inventory.appendHistory(serverNamed: server, command: command, exitStatus: status)
        }
    }

    /// The fleet commands run before, oldest first, each once in a row.
    func loadFleetHistory() {
        queue.async { [self] in
            let entries = (try? inventory.fleetHistory(limit: 500)) ?? []
            var commands: [String] = []
            for entry in entries.reversed() where commands.last != entry.command { commands.append(entry.command) }
            post(.fleetHistory(commands))
        }
    }

    func appendFleetHistory(command: String, servers: Int) {
        queue.async { [self] in
            _ = try? inventory.appendFleetHistory(command: command, serverCount: servers)
        }
    }

    /// Waits at most `seconds` for the work queued so far; true when it finished.
    @discardableResult
    func waitUntilIdle(seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + seconds) == .success
    }
}
