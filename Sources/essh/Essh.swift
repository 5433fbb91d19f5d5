import App
import ArgumentParser
import SSH

/// `essh`: the root command. Without a subcommand it opens the terminal interface.
struct Essh: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "essh",
        abstract: """
            eSSH — easy SSH: run commands on one server or many, open shells, check which are up, read network \
            output as tables, mail any output. Without a subcommand: the full-screen interface.
            """,
        version: "essh \(version) (libssh2 \(SSHLibrary.version))",
        subcommands: subcommandList
    )

    /// Every subcommand, one line each (each issue adds its own).
    static let subcommandList: [ParsableCommand.Type] = [
        ExecCommand.self,
        ParseCommand.self,
        ServersCommand.self,
        CheckCommand.self,
        NetCommand.self,
        MailCommand.self,
        ShellCommand.self,
    ]

    @OptionGroup var database: DatabaseOptions

    /// No subcommand: the full-screen interface on this terminal.
    func run() throws {
        let status = App.run(databasePath: database.path)
        if status != 0 { throw ExitCode(status) }
    }
}
