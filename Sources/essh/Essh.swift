import App
import ArgumentParser
import CLI
import SSH

/// `essh`: the root command. With a subcommand it runs the command line (module CLI); without one it opens the
/// terminal interface (module App). This file and main.swift are the only code that sees both front ends.
struct Essh: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "essh",
        abstract: """
            eSSH — easy SSH: run commands on one server or many, open shells, check which are up, read network \
            output as tables, mail any output. Without a subcommand: the full-screen interface.
            """,
        discussion: ExitStatus.helpText,
        version: "essh \(Subcommands.version)\nlibssh2 \(SSHLibrary.version): \(SSHLibrary.origin)",
        subcommands: Subcommands.all
    )

    @OptionGroup var database: DatabaseOptions

    /// No subcommand: the full-screen interface on this terminal (what stops it ends as any command's failure).
    func run() throws {
        try App.run(databasePath: database.path)
    }
}
