import Operations
import AppCore
import Foundation
import Inventory
import TerminalCurses

/// eSSH's full-screen terminal interface (`essh` without a subcommand).
public enum App {
    /// Opens the database at `databasePath`, takes over the terminal, and runs until the person quits.
    /// Returns the process exit status; says on stderr what went wrong when it cannot start.
    public static func run(databasePath: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Int32
    {
        // The terminal first: without one nothing is created on disk.
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal()
        } catch {
            printError("\(error)")
            return 1
        }
        let inventory: Inventory
        do {
            inventory = try Inventory(path: databasePath)
        } catch {
            terminal.shutdown()
            printError(error.message)
            return 1
        }
        let runtime = AppRuntime(terminal: terminal, inventory: inventory, environment: environment,
                                 localUser: LocalUser.name, unicode: terminal.supportsUnicode)
        do {
            try runtime.run()
            terminal.shutdown()
            return 0
        } catch {
            terminal.shutdown()
            printError("the terminal failed: \(error)")
            return 1
        }
    }

    static func printError(_ message: String) {
        ErrorLine.print(message)
    }
}
