import ArgumentParser
import CLI
import Fleet
import Foundation

// The composition root: argv → the command tree (Essh) → the modules.
// Started by ssh-keygen as its askpass program (essh key generate): answer and end, before anything else.
if Askpass.isAsked { Askpass.answer() }
setlocale(LC_ALL, "")
signal(SIGPIPE, SIG_IGN)
// eSSH takes no password from the environment: libpq would read PGPASSWORD for the team database (issue 18). Cleared
// here, before any thread starts, so neither the command line nor the interface can use it.
unsetenv("PGPASSWORD")
// Under `ulimit -v`, glibc's per-thread malloc arenas would use up the address space before fleet workers do.
MemoryLimit.fitAllocatorToLimit()
// As ParsableCommand.main, but a failure is printed through CommandEnding (sanitised, one output path).
do {
    var command = try Essh.parseAsRoot(CommandLineArguments.prepared(Array(CommandLine.arguments.dropFirst())))
    try command.run()
} catch {
    CommandEnding.exit(Essh.self, error: error)
}
