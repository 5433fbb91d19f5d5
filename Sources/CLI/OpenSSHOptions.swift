import ArgumentParser

/// OpenSSH's options that eSSH does not have, each with a sentence saying what eSSH does instead (or that it is
/// planned), so `essh -J bastion db1` says why instead of "Unknown option '-J'". They are found before parsing, in
/// the words of the commands that connect like ssh (`essh DEST`, `shell`, `exec`, `net`) up to DEST and the remote
/// command, read with ssh's own grammar (which letters take a value), and end as any usage error: the sentence, the
/// usage of the command meant, 64.
enum OpenSSHOptions {
    /// An OpenSSH option found, with its sentence and the command whose usage to show.
    struct Refusal: Error, Equatable {
        let sentence: String
        /// The subcommand meant: given, or the one `essh DEST [COMMAND]` stands for.
        let command: String
    }

    /// The letters that take a value in ssh(1), so the word after one is not taken for DEST.
    static let valueLetters: Set<Character> = Set("BbcDEeFIiJLlmOoPpQRSWw")

    /// The commands that take ssh's options; another subcommand ends the search.
    static let connecting: Set<String> = ["shell", "exec", "net", "forward", "proxy"]

    /// ssh's letters a connecting command has itself (`essh forward -L …`), not refused there.
    static let ownLetters: [String: Set<Character>] = ["forward": ["L", "R", "D"]]

    /// The first OpenSSH option in `args` that eSSH does not have, or nil.
    static func refusal(_ args: [String]) -> Refusal? {
        let subcommands = Set(Subcommands.all.compactMap { $0.configuration.commandName } + ["help"])
        let longWithValue = ExecCommand.valueOptions.union(ShellCommand.valueOptions)
            .union(ForwardCommand.valueOptions).union(["--to"])
        var command: String?
        // Without a subcommand, ssh reads options after DEST too (`ssh host -L …`), up to the remote command.
        var destSeen = false
        var i = 0
        while i < args.count {
            let word = args[i]
            if word == "--" { return nil }
            if word.hasPrefix("--") {
                i += longWithValue.contains(word) ? 2 : 1
                continue
            }
            if word.hasPrefix("-") && word.count > 1 {
                let letters = Array(word.dropFirst())
                for (k, letter) in letters.enumerated() {
                    let rest = String(letters[(k + 1)...])
                    let value = valueLetters.contains(letter) ? (rest.isEmpty ? args[safe: i + 1] : rest) : nil
                    let own = command.flatMap { ownLetters[$0] }?.contains(letter) == true
                    if !own, let sentence = sentence(letter, value: value) {
                        return Refusal(sentence: sentence,
                                       command: command ?? meant(args, after: i, letter: letter, destSeen: destSeen))
                    }
                    if valueLetters.contains(letter) {
                        if rest.isEmpty { i += 1 }
                        break
                    }
                }
                i += 1
                continue
            }
            if command == nil && subcommands.contains(word) {
                guard connecting.contains(word) else { return nil }
                command = word
                i += 1
                continue
            }
            // DEST (or, for exec with --all/--tag, the command): what follows belongs to the remote command, except
            // for the commands that take none (shell; net's KIND) and the options right after DEST without one.
            if command == "exec" || destSeen { return nil }
            if command == nil { destSeen = true }
            i += 1
        }
        return nil
    }

    /// `essh DEST` is `shell`, `essh DEST COMMAND` is `exec`: the command the person meant when none was named,
    /// for its usage. `index` is where the option was found; `letter` tells whether its value follows.
    private static func meant(_ args: [String], after index: Int, letter: Character, destSeen: Bool) -> String {
        var words = destSeen ? 1 : 0
        var i = index + 1
        if valueLetters.contains(letter) && args[index].count == 2 { i += 1 }
        while i < args.count {
            let word = args[i]
            if word.hasPrefix("-") && word.count > 1 && words <= 1 {
                i += valueLetters.contains(word.last ?? " ") && word.count == 2 ? 2 : 1
                continue
            }
            words += 1
            i += 1
        }
        return words > 1 ? "exec" : "shell"
    }

    /// The sentence for `-letter` (with its value, for `-o`); nil for the options eSSH has (`-p`, `-l`, `-i`, `-J`,
    /// `-c`, `-v`, `-q`, `-n`) and for letters that are not ssh's.
    static func sentence(_ letter: Character, value: String?) -> String? {
        switch letter {
        case "L", "R", "D":
            let what = letter == "L" ? "local port forwarding" : letter == "R" ? "remote port forwarding"
                : "dynamic port forwarding, a SOCKS proxy"
            return "-\(letter) (\(what)) is essh forward in eSSH: essh forward DEST -\(letter) "
                + (letter == "D" ? "[bind:]port" : "[bind:]port:host:hostport")
                + " (repeatable, with -L, -R and -D together; it runs until Ctrl-C, as ssh -N; essh -N -\(letter) … DEST "
                + "says the same)."
        case "W":
            return "-W (stdin and stdout joined to a host and port) is essh proxy in eSSH: essh proxy DEST --to "
                + "host:port (or essh -W host:port DEST)."
        case "N":
            return "-N (no command, only forwarding) is essh forward in eSSH: essh forward DEST -L … (it runs no "
                + "command and stays until Ctrl-C); essh -N … DEST, with -N before DEST, runs it."
        case "f":
            return "-f (go to the background) is not supported: eSSH stays in the foreground. Run "
                + "essh exec -n DEST COMMAND & for a command in the background."
        case "A":
            return "-A (agent forwarding) is not supported: eSSH never forwards your agent to the server; it uses "
                + "the agent only to log in itself."
        case "a":
            return "-a (no agent forwarding) is not needed: eSSH never forwards your agent."
        case "t":
            return "-t (force a terminal) is not needed: essh DEST opens a shell with a terminal; essh DEST COMMAND "
                + "and essh exec run commands without one. Run a command that needs a terminal (top, vi, sudo "
                + "asking a password) in the shell of essh DEST."
        case "T":
            return "-T (no terminal) is not needed: essh DEST COMMAND and essh exec never ask for a terminal."
        case "X", "Y":
            return "-\(letter) (X11 forwarding) is not supported: eSSH forwards no X11."
        case "x":
            return "-x (no X11 forwarding) is not needed: eSSH never forwards X11."
        case "C":
            return "-C (compression) is not supported: eSSH does not compress the connection."
        case "F":
            return "-F (another ssh_config file) is not supported: eSSH connects to its saved servers; "
                + "import a config with essh servers import-ssh-config FILE."
        case "4", "6":
            return "-\(letter) (IPv\(letter) only) is not supported: eSSH tries each address the name has in turn; "
                + "give an IPv\(letter) address as DEST to use only that."
        case "m":
            return "-m (MACs) is --macs in eSSH."
        case "V":
            return "-V (version) is --version in eSSH."
        case "o":
            return option(value ?? "")
        case "B", "b", "E", "e", "G", "g", "I", "K", "k", "M", "O", "P", "Q", "S", "s", "w", "y":
            return "-\(letter) is an OpenSSH option eSSH does not have; essh help shell lists eSSH's options."
        default:
            return nil
        }
    }

    /// `-o Keyword=Value` (or `Keyword Value`): eSSH's option for the keywords it has an option for, else why not.
    static func option(_ text: String) -> String {
        let parts = text.split(maxSplits: 1, whereSeparator: { $0 == "=" || $0 == " " || $0 == "\t" })
        let keyword = parts.first.map(String.init) ?? ""
        let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : "VALUE"
        let given = "-o \(text)"
        let equivalents: [String: String] = [
            "port": "-p \(value)", "user": "-l \(value)", "identityfile": "-i \(value)",
            "userknownhostsfile": "--known-hosts \(value)", "connecttimeout": "--connect-timeout \(value)",
            "ciphers": "--ciphers \(value)", "kexalgorithms": "--kex \(value)", "macs": "--macs \(value)",
            "hostkeyalgorithms": "--host-key-algorithms \(value)", "serveraliveinterval": "essh shell --keepalive \(value)",
        ]
        switch keyword.lowercased() {
        case "stricthostkeychecking":
            switch value.lowercased() {
            case "yes": return "\(given) is --host-key-policy strict in eSSH."
            case "accept-new": return "\(given) is --host-key-policy accept-new in eSSH."
            case "ask": return "\(given) is --host-key-policy ask in eSSH."
            default:
                return "\(given): eSSH always checks host keys (a changed key is refused); "
                    + "--host-key-policy accept-new saves unknown ones without asking."
            }
        case "proxyjump":
            return "\(given) is -J \(value) in eSSH."
        case "proxycommand":
            return "\(given): eSSH runs no proxy command; it goes through jump hosts itself (-J HOST stands for "
                + "ProxyCommand ssh -W %h:%p HOST)."
        case "localforward", "remoteforward", "dynamicforward":
            return "\(given): port forwarding is essh forward DEST -L/-R/-D in eSSH."
        case "forwardagent":
            return "\(given): eSSH never forwards your agent."
        default:
            if let equivalent = equivalents[keyword.lowercased()] { return "\(given) is \(equivalent) in eSSH." }
            return "-o (ssh_config options) is not supported: eSSH has options of its own (essh help shell), and a "
                + "saved server keeps its settings (essh servers add, essh servers import-ssh-config)."
        }
    }
}

extension Array {
    /// The element at `index`, or nil past the end.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
