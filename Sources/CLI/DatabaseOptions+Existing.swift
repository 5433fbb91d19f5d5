import Foundation
import Inventory

extension DatabaseOptions {
    /// The database when its file exists, else nil: commands that only read (`config get`, `servers show`, `check`
    /// of unsaved hosts, completions) never create one.
    func openExisting() throws -> Inventory? {
        FileManager.default.fileExists(atPath: path) ? try open() : nil
    }
}
