import ArgumentParser

extension CommandLineArguments {
    /// `essh DEST` means `essh shell DEST`, as `ssh DEST` opens a shell: when the first word that is not an option
    /// (or an option's value) names no subcommand, `shell` is put in front — and, as with ssh, words after DEST
    /// are a command to run, so `essh DEST COMMAND…` means `essh exec DEST -- COMMAND…`. `essh` alone still opens
    /// the interface, and `essh exec …`, `essh help …` are untouched. A word that is neither a command nor a
    /// server then fails to connect with a message saying both (`--as-default-command`).
    static func defaultingToShell(_ args: [String]) -> [String] {
        let commands = Set(Subcommands.all.compactMap { $0.configuration.commandName } + ["help"])
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { return args }
            if a.hasPrefix("--"), a.contains("=") { i += 1; continue }
            if ShellCommand.valueOptions.contains(a) { i += 2; continue }
            if a.hasPrefix("-") && a.count > 1 { i += 1; continue }
            if commands.contains(a) { return args }
            guard i + 1 < args.count else { return ["shell", "--as-default-command"] + args }
            // A shell-only option with a command cannot be run as exec: the shell says so (--with-command).
            let shellOnly = args[..<i].first { word in
                ShellCommand.shellOnlyOptions.contains { word == $0 || word.hasPrefix($0 + "=") }
            }
            if shellOnly != nil { return ["shell", "--with-command"] + args[...i] }
            // Everything after DEST is the command, `--` and option-like words included (as `ssh DEST echo a -- b`
            // runs `echo a -- b`): the `--` put after DEST says so to exec.
            let rest = args[(i + 1)...]
            return ["exec"] + args[...i] + (rest.first == "--" ? [] : ["--"]) + rest
        }
        return args
    }
}

extension ShellCommand {
    /// Options that take a value, so the word after one is not taken for DEST.
    static var valueOptions: Set<String> { ConnectionOptions.valueOptions.union(PortOption.valueOptions).union(shellOnlyOptions) }

    /// Options of the shell that `essh exec` does not have, so `essh DEST COMMAND` cannot take them.
    static let shellOnlyOptions: Set<String> = ["--keepalive"]
}
