import CLI
import Foundation

// The composition root: argv → the command tree (Essh) → the modules.
setlocale(LC_ALL, "")
signal(SIGPIPE, SIG_IGN)
Essh.main(CommandLineArguments.normalised(Array(CommandLine.arguments.dropFirst())))
