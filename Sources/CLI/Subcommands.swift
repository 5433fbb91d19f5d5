import ArgumentParser

/// The command line's subcommands and version, for the root command in `essh` (the composition root, which also
/// opens the interface when no subcommand is given).
package enum Subcommands {
    /// eSSH's version.
    package static let version = "0.1.0"

    /// Every subcommand, one line each (each issue adds its own).
    package static let all: [ParsableCommand.Type] = [
        ExecCommand.self,
        ParseCommand.self,
        ServersCommand.self,
        CheckCommand.self,
        NetCommand.self,
        MailCommand.self,
        ShellCommand.self,
    ]
}
