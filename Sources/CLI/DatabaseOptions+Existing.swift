import Foundation
import Inventory

extension DatabaseOptions {
    /// The database when its file exists, else nil: commands that only read (`servers list`, `show`, `export`,
    /// `check`, `exec` and `net` on saved names, `config get`/`list`, completions) never create one, nor its folder.
    func openExisting() throws -> Inventory? {
        try Inventory.fileExists(at: path) ? try open() : nil
    }

    /// Said when a command that only reads finds no database: where it looked, and that nothing was made there (a
    /// mistyped `--db` shows at once).
    var missingNote: String { "There is no database at \(path) (nothing was created)." }
}
