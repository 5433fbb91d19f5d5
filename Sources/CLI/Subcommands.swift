import ArgumentParser
import Basics
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
        ForwardCommand.self,
        ProxyCommand.self,
        CopyCommand.self,
        KeyCommand.self,
        VaultCommand.self,
        TeamCommand.self,
    ]
}

/// How every command ends when parsing or running throws: the one ending path, with the one exit-status table
/// (`ExitStatus`). Help and version go to stdout. A usage error (an unknown option, a missing or malformed argument,
/// a `ValidationError`) prints ArgumentParser's message with the usage block and ends with 64. Anything else is a
/// failure of the work: one line `essh: SENTENCE` on stderr (`UserFacing`: a module's sentence, a file error naming
/// the path), no usage, and its status from the table. A thrown `ExitCode` carries a status already reported (the
/// remote command's, passed on by `exec` and `shell`). What goes to stderr is sanitised: a message may quote the
/// word the person typed, escape sequences included.
package enum CommandEnding {
    package static func exit(_ command: ParsableCommand.Type, error: Error) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        if let refusal = error as? OpenSSHOptions.Refusal {
            // As ArgumentParser ends a usage error, with eSSH's sentence in place of "Unknown option".
            let sub = Subcommands.all.first { $0.configuration.commandName == refusal.command }
            let usage = sub.map { command.usageString(for: $0) } ?? command.usageString()
            let text = "Error: \(refusal.sentence)\nUsage: \(usage)\n"
                + "  See 'essh \(refusal.command) --help' for more information.\n"
            TerminalOutput.writeError(TextSanitizer.sanitize(text, policy: .visible))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        let parsing = command.exitCode(for: error)
        if parsing == .success || parsing == .validationFailure {
            let message = command.fullMessage(for: error)
            if parsing == .success {
                if !message.isEmpty { TerminalOutput.write(message + "\n") }
            } else if !message.isEmpty {
                TerminalOutput.writeError(TextSanitizer.sanitize(message, policy: .visible) + "\n")
            }
            Foundation.exit(parsing.rawValue)
        }
        let sentence = UserFacing.sentence(error)
        if !sentence.isEmpty { printError(sentence) }
        Foundation.exit(ExitStatus(for: error).rawValue)
    }
}
