import AppCore
import Basics
import Foundation
import Inventory
import Operations
import Synchronization

/// The database: servers, settings and history, on one serial queue (GRDB's queue is safe from any thread; one
/// queue keeps the writes in the order the interface asked for them).
final class StoreWorker: Sendable {
    private let inventory: Inventory
    private let post: @Sendable (Message) -> Void
    private let queue = DispatchQueue(label: "essh.app.store")
    /// The database's `data_version` when last looked at (on `queue` only), and the timer that looks.
    private let watched = Mutex<(version: Int?, timer: (any DispatchSourceTimer)?)>((nil, nil))
    /// $HOME (for ~/.ssh/config) and the local user, as connecting sees them.
    private let context: ConnectionProfile.Context

    init(inventory: Inventory, post: @escaping @Sendable (Message) -> Void,
         context: ConnectionProfile.Context = ConnectionProfile.Context()) {
        self.inventory = inventory
        self.post = post
        self.context = context
    }

    /// Reads servers, last check results and settings.
    func load() {
        queue.async { [self] in read() }
    }

    private func read() {
        do throws(InventoryError) {
            let servers = try inventory.servers()
            let results = try inventory.lastCheckResults()
            let settings = try inventory.allSettings()
            post(.loaded(servers: servers, checks: results, settings: settings))
        } catch {
            post(.storeFailed(error.message))
        }
    }

    /// Notices what other processes change in the database (`essh servers add` or `rm` while the interface runs, an
    /// `essh config set`) and loads again, every `interval` seconds, on the store's queue: one `PRAGMA
    /// data_version` a look, which this process's own writes leave alone (they reload through their own messages).
    func watch(every interval: Double = 1) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.look() }
        watched.withLock { state in
            state.timer?.cancel()
            state.timer = timer
        }
        queue.async { [self] in
            let version = try? inventory.dataVersion()
            watched.withLock { $0.version = version }
        }
        timer.resume()
    }

    /// Stops watching.
    func stopWatching() {
        watched.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    private func look() {
        guard let version = try? inventory.dataVersion() else { return }
        let changed = watched.withLock { state -> Bool in
            defer { state.version = version }
            return state.version != nil && state.version != version
        }
        if changed { read() }
    }

    /// Adds `draft`, or replaces the server named `replacing` with it.
    func save(_ draft: ServerDraft, replacing: String?) {
        queue.async { [self] in
            do throws(InventoryError) {
                if let replacing {
                    let changes = ServerChanges(name: draft.name, host: draft.host, port: draft.port,
                                                user: draft.user ?? "", auth: draft.auth, keyPath: draft.keyPath ?? "",
                                                os: draft.os, tags: draft.tags, note: draft.note,
                                                algorithms: AlgorithmChanges(replacingWith: draft.algorithms),
                                                jump: draft.jump, credential: draft.credential)
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

    /// Changes `server`'s saved tunnels (already checked by the Tunnels screen with `SavedTunnels`).
    func saveForwards(_ server: String, _ changes: ForwardChanges, autostart: Bool?, done: String?) {
        queue.async { [self] in
            do throws(InventoryError) {
                try inventory.updateServer(named: server, ServerChanges(forwards: changes, autostart: autostart))
                post(.forwardsSaved(notice: done))
            } catch {
                post(.forwardsSaveFailed(error.message))
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

    /// What quick connect's text names, by the command line's rule (saved servers first, then ~/.ssh/config).
    func resolve(_ text: String) {
        queue.async { [self] in
            do {
                let resolution = try ConnectionProfile.resolve(text, saved: { name throws(InventoryError) in
                    try inventory.findServer(named: name)
                }, context: context)
                post(.destinationResolved(resolution))
            } catch {
                post(.destinationFailed(UserFacing.sentence(error)))
            }
        }
    }

    /// ~/.ssh/config and the reader for it.
    private var sshConfig: (path: String, reader: SSHConfigReader) {
        (context.home + "/.ssh/config", SSHConfigReader(home: context.home, localUser: context.localUser))
    }

    /// Posts the hosts of ~/.ssh/config that an import would save, when there are any (a missing or unreadable file:
    /// nothing to offer).
    func findSSHConfigHosts() {
        queue.async { [self] in
            let (path, reader) = sshConfig
            // Only the hosts the import would save are offered (those behind a jump host too, with their chain).
            guard let hosts = try? SSHConfigImport.plan(path: path, reader: reader).hosts, !hosts.isEmpty else { return }
            post(.sshConfigHosts(hosts.map(\.alias)))
        }
    }

    /// Saves the hosts of ~/.ssh/config (`SSHConfigImport`, as `essh servers import-ssh-config`: jump hosts with
    /// their chain, bad ports left out) and says how it went.
    func importSSHConfig() {
        queue.async { [self] in
            let (path, reader) = sshConfig
            do throws(InventoryError) {
                let outcome = try SSHConfigImport.save(try SSHConfigImport.plan(path: path, reader: reader),
                                                       into: inventory)
                // One notice line: the hosts and reasons are the command line's to list.
                post(.sshConfigImported("Imported ~/.ssh/config: \(outcome.counts)"
                                        + (outcome.skipped.isEmpty && outcome.unsupportedProxies.isEmpty ? "."
                                            : " (essh servers import-ssh-config says why).")))
            } catch {
                post(.storeFailed(error.message))
            }
        }
    }

    /// Remembers that the import offer was declined.
    func declineSSHConfigImport() {
        queue.async { [self] in
            do throws(InventoryError) {
                try inventory.setSetting(Update.sshConfigOfferSetting, to: "declined")
            } catch {
                post(.storeFailed(error.message))
            }
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
