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

    /// Opens the database, or prints why it cannot and exits.
    func open() throws -> Inventory {
        try CommandFailure.guarding { () throws(InventoryError) in try Inventory(path: path) }
    }
}
