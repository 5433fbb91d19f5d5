import ArgumentParser
import Foundation
import Inventory
import Operations

/// `--db PATH`, shared by every command that uses the database.
package struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file (default: $ESSH_DB, else $XDG_DATA_HOME/essh/essh.db, i.e. ~/.local/share/essh/essh.db).",
        valueName: "PATH"))
    var db: String?

    package init() {}

    package var path: String { DatabaseLocation.resolve(option: db, environment: ProcessInfo.processInfo.environment) }

    /// Opens the database (an `InventoryError` says why it cannot: exit status 3, or 2).
    /// The machine as connecting sees it, with jump hosts looked up among the saved servers of an existing database
    /// (never created for it): the one context of every command that connects or checks.
    /// The `ssh.known_hosts` setting is the stored one, as in the interface (after `--known-hosts` and
    /// $ESSH_KNOWN_HOSTS: `ConnectionProfile.Context.knownHostsFile`). The team's pinned host keys come from the
    /// same database's team cache (`TeamPins`), so a member's first connection to a pinned server asks nothing and
    /// a key other than the pin is refused.
    var connectionContext: ConnectionProfile.Context {
        let path = self.path
        let existing = (try? Inventory.fileExists(at: path)) == true ? try? Inventory(path: path) : nil
        let stored = existing.flatMap { try? $0.allSettings() }
        return ConnectionProfile.Context(knownHostsSetting: stored.map { Settings(stored: $0).knownHosts } ?? "",
                                         savedServer: { name in
            try Inventory.fileExists(at: path) ? try Inventory(path: path).findServer(named: name) : nil
        }, hostKeyPins: existing.map(TeamPins.lookup))
    }

    func open() throws(InventoryError) -> Inventory {
        try Inventory(path: path)
    }
}
