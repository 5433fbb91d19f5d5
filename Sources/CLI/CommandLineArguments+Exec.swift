extension CommandLineArguments {
    /// The flags of `essh exec` (options without a value); with `ExecCommand.valueOptions` these are every option
    /// it has.
    static let execFlags: Set<String> = [
        "-n", "-v", "--verbose", "-q", "--quiet", "--all", "--json", "--group", "--raw", "--help",
    ]

    /// Whether `words` (between DEST and a `--`) are all `essh exec` options, each with its value: only then is that
    /// `--` the separator before the command (`essh exec web1 --mail ops@x -- df -h`). Otherwise the command is
    /// everything after DEST and the `--` is one of its words (`essh exec box echo a -- b` runs `echo a -- b`).
    static func onlyExecOptions(_ words: ArraySlice<String>) -> Bool {
        var i = words.startIndex
        while i < words.endIndex {
            let word = words[i]
            if let eq = word.firstIndex(of: "="), word.hasPrefix("--") {
                guard ExecCommand.valueOptions.contains(String(word[..<eq])) else { return false }
                i += 1
            } else if ExecCommand.valueOptions.contains(word) {
                i += 2
            } else if execFlags.contains(word) {
                i += 1
            } else {
                return false
            }
        }
        return i == words.endIndex
    }
}
