import Foundation

extension TmuxSession {
    /// Starts a program under test in a `width` x `height` terminal, run by `sh` so that how it ended stays on
    /// the screen: `cd directory`, run `program arguments` with `LANG=C.UTF-8` and `environment` added and
    /// `unset` removed, then print
    ///
    ///     <exitMarker><status> RESTORED=yes|no     (the tty modes are as before the program: `stty -g`)
    ///     TTY-SANE|TTY-RAW                         (whether it left the terminal without echo, lines or signals)
    ///
    /// and keep the pane open for the test to read. `arguments` is shell text, as typed after the program's
    /// name (a test may use quotes and `$(…)`); every other value is quoted here. `sh` itself survives a Ctrl-C typed
    /// in the pane (`trap : INT`; the program still gets SIGINT with its default meaning, a trap is not inherited),
    /// so the marker says how the program ended on Ctrl-C instead of the pane closing with `sh`.
    public static func launch(_ program: String, arguments: String = "", in directory: String? = nil,
                              environment: [String: String] = [:], unset: [String] = [],
                              exitMarker: String = "EXIT=", width: Int = 120, height: Int = 35) throws -> TmuxSession
    {
        let run = commandLine(program, arguments: arguments, environment: environment, unset: unset)
        let script = (directory.map { "cd \(shellQuoted($0)) || exit 97; " } ?? "")
            + "trap : INT; before=$(stty -g); \(run); rc=$?; after=$(stty -g); "
            + "if [ \"$before\" = \"$after\" ]; then r=yes; else r=no; fi; "
            + "printf '%s%s RESTORED=%s\\n' \(shellQuoted(exitMarker)) \"$rc\" \"$r\"; "
            + "if stty -a | grep -Eqw -- '-icanon|-echo|-isig'; then echo TTY-RAW; else echo TTY-SANE; fi; "
            + "sleep 300"
        return try TmuxSession(command: "sh -c " + shellQuoted(script), width: width, height: height)
    }

    /// Starts the program as a person types it at an interactive shell with job control (bash): Ctrl-Z stops it
    /// and `fg` (typed by the test) brings it back. When it ends, the pane shows `<exitMarker><status> ` and the
    /// shell's prompt (`$ `) again.
    public static func launchInShell(_ program: String, arguments: String = "", in directory: String,
                                     environment: [String: String] = [:], exitMarker: String = "EXIT=",
                                     width: Int = 120, height: Int = 35) throws -> TmuxSession
    {
        let tmux = try TmuxSession(command: "env PS1='$ ' bash --norc --noprofile -i", width: width, height: height)
        let run = commandLine(program, arguments: arguments, environment: environment, unset: [])
        try tmux.waitFor("the shell's prompt") { $0.contains { $0.hasPrefix("$") } }
        // One job for the whole line: a stopped program stops its parentheses too, so the marker waits for its end.
        try tmux.type("cd \(shellQuoted(directory)) && (\(run); echo \(shellQuoted(exitMarker))$?' ')")
        try tmux.press("Enter")
        return tmux
    }

    /// `env LANG=C.UTF-8 … program arguments` as a shell line, everything quoted but `arguments`.
    static func commandLine(_ program: String, arguments: String, environment: [String: String],
                            unset: [String]) -> String {
        var env = ["LANG": "C.UTF-8"]
        for (k, v) in environment { env[k] = v }
        let assignments = unset.sorted().map { "-u \(shellQuoted($0))" }
            + env.keys.sorted().map { "\($0)=\(shellQuoted(env[$0]!))" }
        return (["env"] + assignments + [shellQuoted(program)]).joined(separator: " ")
            + (arguments.isEmpty ? "" : " " + arguments)
    }

    /// `text` as one word for `sh`, in single quotes.
    public static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
