import Operations
import AppCore
import Foundation
import Inventory
import LocalProcess
import TerminalCurses

/// eSSH's full-screen terminal interface (`essh` without a subcommand).
public enum App {
    /// Opens the database at `databasePath`, takes over the terminal, and runs until the person quits. Throws, with
    /// the terminal given back, why it could not start (`CursesError`: no terminal; `InventoryError`: the database)
    /// or why it stopped (`CursesError`); the command line's ending says it and picks the exit status, as for any
    /// command.
    public static func run(databasePath: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws
    {
        // The terminal first: without one nothing is created on disk.
        let terminal = try CursesTerminal()
        var farewell: String?
        defer {
            terminal.shutdown()
            // Said on the normal screen, where it stays: the tunnels the interface was keeping up are closed.
            if let farewell { _ = Array((farewell + "\n").utf8).withUnsafeBytes { writeAll(STDERR_FILENO, $0) } }
        }
        let inventory = try Inventory(path: databasePath)
        let runtime = AppRuntime(terminal: terminal, inventory: inventory, environment: environment,
                                 localUser: LocalUser.name, unicode: terminal.supportsUnicode)
        defer { farewell = runtime.farewell }
        try runtime.run()
    }
}
