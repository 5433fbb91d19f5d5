import CLI
import Fleet
import Foundation

// The composition root: argv → the command tree (Essh) → the modules.
setlocale(LC_ALL, "")
signal(SIGPIPE, SIG_IGN)
// Under `ulimit -v`, glibc's per-thread malloc arenas would use up the address space before fleet workers do.
MemoryLimit.fitAllocatorToLimit()
Essh.main(CommandLineArguments.normalised(Array(CommandLine.arguments.dropFirst())))
