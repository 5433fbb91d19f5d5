/// Argument rewriting that swift-argument-parser cannot express.
enum CommandLineArguments {
    /// `essh exec DEST COMMAND...` takes the remote command without `--` (like `ssh host cmd -la`), while options may
    /// also follow DEST when `--` is given (`essh exec web1 --mail ops@x -- df -h`). Without a `--`, one is inserted
    /// after DEST so that the command's own flags are never read as eSSH's.
    static func normalised(_ args: [String]) -> [String] {
        let args = defaultingToShell(args)
        guard let sub = args.firstIndex(where: { !$0.hasPrefix("-") }), args[sub] == "exec",
              !args[(sub + 1)...].contains("--") else { return args }
        var i = sub + 1
        // With --all or --tag (before DEST) there is no DEST: the first word that is not an option starts the command.
        var noDest = false
        while i < args.count {
            let a = args[i]
            if a == "--all" || a == "--tag" || a.hasPrefix("--tag=") { noDest = true }
            if a.hasPrefix("--"), a.contains("=") { i += 1; continue }
            if ExecCommand.valueOptions.contains(a) { i += 2; continue }
            if a.hasPrefix("-") && a.count > 1 { i += 1; continue }
            // args[i] is DEST: the rest is the remote command.
            var out = args
            out.insert("--", at: noDest ? i : i + 1)
            return out
        }
        return args
    }
}
