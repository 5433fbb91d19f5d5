/// Which command lines of a session run on a terminal of their own: the person's terminal handed over to a PTY on
/// the server (as F8 does), because the program reads the keyboard or draws the screen (`sudo` asking a password,
/// `top`, `vi`, `less`, `apt install` asking to continue). Without a terminal they end at once with nothing to show.
/// Chosen by the program of each command of the line (after `VAR=value` assignments and `!`, `env`, `nice`, `nohup`,
/// `time`, `command`, `exec`, and a path: `/usr/bin/top` is `top`), or by the prefix the person types: `!COMMAND`.
/// Pure.
enum TerminalCommand {
    /// Typed before a command to run it on a terminal whatever it is: `!mysql prod`. A `!` followed by a space is
    /// the shell's own `! COMMAND` (negate the status), which keeps its meaning.
    static let prefix: Character = "!"

    /// Why a line runs on a terminal.
    enum Reason: Sendable, Equatable {
        /// The person typed the prefix.
        case prefix
        /// The program named is known to need one.
        case program(String)
    }

    /// The command to run on a terminal and why, or nil when `line` runs in the session as any other.
    static func classify(_ line: String) -> (command: String, reason: Reason)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        let rest = trimmed.dropFirst()
        if trimmed.first == prefix, let next = rest.first, next != " ", next != "\t", next != "=" {
            return (String(rest).trimmingTrailingBlanks, .prefix)
        }
        // A list or a pipeline needs one when any of its commands does (`sudo -k; sudo true`, `ps aux | less`).
        for words in Self.commands(String(trimmed)) {
            guard let (program, arguments) = Self.program(words), let rule = rules[program],
                  rule.needsTerminal(arguments) else { continue }
            return (String(trimmed).trimmingTrailingBlanks, .program(program))
        }
        return nil
    }

    /// When a program needs a terminal.
    enum Rule: Sendable {
        /// Always (full-screen programs, pagers, editors, password changers, logins).
        case always
        /// Without arguments (a REPL: `python3`, `mysql`; with a script or `-c`, it runs as usual).
        case withoutArguments
        /// Unless one of these options is given (`sudo -n` never asks).
        case unless([String])
        /// With one of these options (`crontab -e`).
        case withOption([String])
        /// With one of these subcommands (`apt install` asks to continue; `apt list` does not).
        case subcommand([String])

        func needsTerminal(_ arguments: [String]) -> Bool {
            switch self {
            case .always: return true
            case .withoutArguments: return arguments.isEmpty
            case .unless(let options): return !arguments.contains { options.contains($0) }
            case .withOption(let options): return arguments.contains { options.contains($0) }
            case .subcommand(let names):
                return arguments.first { !$0.hasPrefix("-") }.map(names.contains) ?? false
            }
        }
    }

    /// Package manager subcommands that ask before changing anything (`apt update` does not ask: it runs in the
    /// session, its progress on one line).
    private static let packageChanges = ["install", "upgrade", "full-upgrade", "dist-upgrade", "remove", "purge",
                                         "autoremove", "reinstall", "erase", "downgrade", "dup", "patch"]

    /// The programs known to need a terminal (README lists them).
    static let rules: [String: Rule] = {
        var rules: [String: Rule] = [:]
        for name in ["top", "htop", "btop", "atop", "iotop", "iftop", "nload", "nmon", "glances", "vi", "vim", "nvim",
                     "view", "vimdiff", "nano", "pico", "emacs", "mcedit", "micro", "joe", "less", "more", "most",
                     "man", "info", "passwd", "su", "ssh", "telnet", "watch", "mc", "tmux", "screen", "ncdu",
                     "ranger", "nnn", "mutt", "neomutt", "alpine", "visudo", "vipw", "vigr", "sudoedit", "tig",
                     "nethogs", "bmon", "iptraf-ng", "lynx", "w3m", "links", "dialog", "whiptail", "nmtui", "alsamixer",
                     "aptitude", "dpkg-reconfigure"] {
            rules[name] = .always
        }
        for name in ["python", "python3", "ipython", "node", "irb", "bash", "sh", "dash", "zsh", "fish", "ksh",
                     "mysql", "mariadb", "psql", "sqlite3", "redis-cli", "mongo", "mongosh", "bc", "ftp", "sftp",
                     "lftp", "gdb", "R", "erl", "iex", "ghci", "lua", "php", "perl"] {
            rules[name] = .withoutArguments
        }
        rules["sudo"] = .unless(["-n", "--non-interactive", "-l", "--list", "-V", "--version", "-h", "--help", "-k",
                                 "-K"])
        rules["crontab"] = .withOption(["-e"])
        rules["systemctl"] = .subcommand(["edit"])
        for name in ["apt", "apt-get", "dnf", "yum", "zypper", "pacman"] { rules[name] = .subcommand(packageChanges) }
        return rules
    }()

    /// The program a command line runs and its arguments, past assignments and wrappers.
    static func program(_ words: [String]) -> (String, [String])? {
        var rest = words[...]
        while let word = rest.first {
            if isAssignment(word) {
                rest = rest.dropFirst()
            } else if ["!", "env", "nice", "nohup", "time", "command", "exec"].contains(word) {
                rest = rest.dropFirst()
                // Their own options (`nice -n 5`, `env -u X`): skipped with a value when they take one.
                while let option = rest.first, option.hasPrefix("-") {
                    rest = rest.dropFirst()
                    if ["-n", "-u", "--unset", "--adjustment"].contains(option) { rest = rest.dropFirst() }
                }
            } else {
                break
            }
        }
        guard let first = rest.first else { return nil }
        let name = first.split(separator: "/").last.map(String.init) ?? first
        return (name, Array(rest.dropFirst()))
    }

    /// `NAME=value` before the program.
    private static func isAssignment(_ word: String) -> Bool {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
        return word[..<equals].allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }

    /// The simple commands of a line, each as its words: split on blanks with quotes removed, a new command after
    /// each `;`, `|`, `&`, `(`, `)` or newline; the words after a redirection (`<`, `>`) are its target, not
    /// arguments. Enough to find the programs; the shell on the server reads the line for real.
    static func commands(_ line: String) -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var current = ""
        var quote: Character?
        var redirected = false
        func endWord() {
            if !current.isEmpty && !redirected { words.append(current) }
            current = ""
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
            redirected = false
        }
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case " ", "\t": endWord()
            case ";", "|", "&", "(", ")", "\n": endCommand()
            case "<", ">":
                endWord()
                redirected = true
            default: current.append(character)
            }
        }
        endCommand()
        return commands
    }
}

private extension String {
    var trimmingTrailingBlanks: String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
