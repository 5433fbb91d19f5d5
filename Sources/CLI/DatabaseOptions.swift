import ArgumentParser
import Foundation
import Inventory

/// `--db PATH`, shared by every command that uses the database.
package struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file (default: $ESSH_DB, else $XDG_DATA_HOME/essh/essh.db, i.e. ~/.local/share/essh/essh.db).",
        valueName: "PATH"))
    var db: String?

    package init() {}

    package var path: String { DatabaseLocation.resolve(option: db, environment: ProcessInfo.processInfo.environment) }

    /// Opens the database (an `InventoryError` says why it cannot: exit status 3, or 2).
    func open() throws(InventoryError) -> Inventory {
        try Inventory(path: path)
    }
}
