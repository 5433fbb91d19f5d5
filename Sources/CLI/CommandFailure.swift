import ArgumentParser
import Foundation
import Inventory

/// Turns module errors into a message on stderr and an exit status, in one place.
/// Exit statuses: 2 bad input (unknown or duplicate name, invalid value, unreadable ssh config), 3 the database
/// cannot be used (damaged, newer, read-only, locked, I/O). `essh check` uses 1 for "not every server is online".
enum CommandFailure {
    static func guarding<T>(_ body: () throws(InventoryError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw exit(error)
        }
    }

    static func exit(_ error: InventoryError) -> ExitCode {
        printError(error.description)
        switch error.kind {
        case .newerDatabase, .notEsshDatabase, .corrupt, .readOnly, .locked, .io, .sqlite: return ExitCode(3)
        default: return ExitCode(2)
        }
    }
}
