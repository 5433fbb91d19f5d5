/// Argument rewriting that swift-argument-parser cannot express.
package enum CommandLineArguments {
    /// The arguments as the command tree reads them (`normalised`), or a usage error for an OpenSSH option eSSH does
    /// not have (`OpenSSHOptions`: `-J`, `-L`, `-o`, …), which `CommandEnding` ends with its sentence and 64.
    package static func prepared(_ args: [String]) throws -> [String] {
        if let proxy = proxyForm(args) { return proxy }
        if let forward = forwardForm(args) { return forward }
        if let refusal = OpenSSHOptions.refusal(args) { throw refusal }
        return normalised(attachedJump(args))
    }

    /// `-Jbastion` (ssh's spelling, the value attached) as `-J bastion`, which swift-argument-parser reads; only
    /// among eSSH's own words, before DEST, so a remote command's `-J…` stays as typed.
    static func attachedJump(_ args: [String]) -> [String] {
        let subcommands = Set(Subcommands.all.compactMap { $0.configuration.commandName } + ["help"])
        var out: [String] = []
        var i = 0
        // `cp` has options of its own (-p is a flag there, -P a port), and options may follow its operands, as it
        // runs no remote command; the others share ssh's and end at DEST.
        var valueOptions = ShellCommand.valueOptions.union(ExecCommand.valueOptions)
        var copying = false
        while i < args.count {
            let word = args[i]
            if word == "--" { break }
            if word.hasPrefix("-J"), word.count > 2 {
                out += ["-J", String(word.dropFirst(2))]
                i += 1
                continue
            }
            if valueOptions.contains(word) {
                out += args[i..<min(i + 2, args.count)]
                i += 2
                continue
            }
            if word.hasPrefix("-") || subcommands.contains(word) || copying {
                if !copying && word == CopyCommand.configuration.commandName {
                    valueOptions = CopyCommand.valueOptions
                    copying = true
                }
                out.append(word)
                i += 1
                continue
            }
            break
        }
        return out + args[min(i, args.count)...]
    }

    /// `essh exec DEST COMMAND...` takes the remote command without `--` (like `ssh host cmd -la`), while options may
    /// also follow DEST when `--` is given (`essh exec web1 --mail ops@x -- df -h`). Unless only exec options stand
    /// between DEST and a `--`, one is inserted after DEST so that the command's own flags (and its own `--`) are
    /// never read as eSSH's.
    package static func normalised(_ args: [String]) -> [String] {
        let args = defaultingToShell(args)
        guard let sub = args.firstIndex(where: { !$0.hasPrefix("-") }), args[sub] == "exec" else { return args }
        var i = sub + 1
        // With --all, --tag or a hosts file (before DEST) there is no DEST: the first word that is not an option
        // starts the command.
        var noDest = false
        while i < args.count {
            let a = args[i]
            if a == "--" { return args }
            if ["--all", "--tag", "-h", "--hosts-file"].contains(a) || a.hasPrefix("--tag=")
                || a.hasPrefix("--hosts-file=") {
                noDest = true
            }
            if a.hasPrefix("--"), a.contains("=") { i += 1; continue }
            if ExecCommand.valueOptions.contains(a) { i += 2; continue }
            if a.hasPrefix("-") && a.count > 1 { i += 1; continue }
            // args[i] is DEST: the rest is the remote command, unless only exec options come before a `--`. With
            // --all, --tag or a hosts file a word before a `--` is a DEST too many, which exec reports.
            let start = noDest ? i : i + 1
            if let end = args[start...].firstIndex(of: "--"), noDest || onlyExecOptions(args[start..<end]) {
                return args
            }
            var out = args
            out.insert("--", at: start)
            return out
        }
        return args
    }
}
