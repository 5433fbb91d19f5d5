import ArgumentParser
import Foundation
import TextWidth

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
        ConfigCommand.self,
    ]
}

/// How the root command ends when parsing or running throws: ArgumentParser's own ending, except that what goes
/// to stderr is sanitised (a usage error quotes the word the person typed, escape sequences included) and written
/// through the one output path.
package enum CommandEnding {
    package static func exit(_ command: ParsableCommand.Type, error: Error) -> Never {
        let code = command.exitCode(for: error)
        let message = command.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { TerminalOutput.write(message + "\n") }
        } else if !message.isEmpty {
            TerminalOutput.writeError(TextSanitizer.sanitize(message, policy: .visible) + "\n")
        }
        Foundation.exit(code.rawValue)
    }
}
