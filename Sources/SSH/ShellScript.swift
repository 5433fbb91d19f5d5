import Basics
/// The text eSSH writes to the session's persistent shell, and the markers the shell answers with (`CommandShell`;
/// docs/DECISIONS.md, 2026-11-24, "The session is a real shell"). Pure: strings in, strings out.
///
/// The shell is the login shell started again as an *interactive* shell without rc files, reading its commands from
/// the channel (no PTY): an interactive shell goes back to its prompt after Ctrl-C (SIGINT) and after a syntax error,
/// where a non-interactive one would exit or run on. Each command is one line that ends by printing, on stdout,
/// `<essh-out NONCE>STATUS PID CWD<essh-cwd NONCE>`, and on stderr `<essh-err NONCE>`, so both streams are known
/// complete; when the line is cut short (an interrupt, a syntax error in dash) the prompt, `PS1`, prints them
/// instead. NONCE is fresh and random for every command and the markers are put together at run time from halves
/// (`"<" "essh-out ${__essh_n}>"`): the joined marker never appears in the text sent, so neither the output of a
/// command, nor the shell echoing its input (`set -v`, `set -x`), nor an old session's log can end a command early.
enum ShellScript {
    /// The exec request's command, run by the login shell (`$SHELL -c`). It starts that shell again, interactive and
    /// reading no rc files (their prompts, titles and questions are written for terminals). Shells that cannot read
    /// it (fish, csh, cmd.exe, PowerShell, a network device's CLI, a forced command, rbash's "restricted") fail the
    /// probe that follows, and the session runs one command per channel instead.
    static let bootstrap = """
        case ${BASH_VERSION-} in ?*) exec "$BASH" --norc --noprofile --noediting -i;; esac; \
        case ${ZSH_VERSION-} in ?*) exec "$SHELL" -f -i;; esac; \
        ENV= exec "${SHELL:-/bin/sh}" -i
        """

    /// Prints the markers on the channel's stdout and stderr (descriptors 8 and 9, saved by `probe`, so a command's
    /// `exec >file` or `exec 2>&-` cannot take them away). `${__essh_s:-$?}` is the command's status, or, when the
    /// line was cut short (interrupt, syntax error), the shell's. Written for every POSIX shell: no single quotes (it
    /// is sent inside them in `prompt`), no backslash or `!` (bash's prompt escapes) and no `%` but printf's (zsh's,
    /// switched off by `probe`).
    static let printMarkers = #"printf "%s%s%s %s %s%s%s" "<" "essh-out ${__essh_n}>" "${__essh_s:-$?}" "$$" "$PWD" "#
        + #""<" "essh-cwd ${__essh_n}>" >&8; printf "%s%s" "<" "essh-err ${__essh_n}>" >&9"#

    /// The prompt prints the markers when a line was cut short — interrupted, or stopped by a syntax error in dash
    /// — so `__essh_n` is still set. A line that runs to its end prints them itself and clears `__essh_n` (bash does
    /// not always expand its prompt again after a syntax error in `eval`, so the prompt alone is not enough).
    static let prompt = "$(case ${__essh_n-} in (?*) \(printMarkers);; esac)"

    /// The first line: keeps the channel's stdout and stderr as descriptors 8 and 9, switches off what an
    /// interactive shell would otherwise add (bash's history file and `!` expansion, zsh's prompt escapes and the
    /// mark it prints after output without a final newline), and sets the prompt, whose first print answers it.
    static func probe(nonce: String) -> String {
        "exec 8>&1 9>&2; "
            + "case ${BASH_VERSION-} in ?*) set +H +o history; history -c; unset HISTFILE;; esac; "
            + "case ${ZSH_VERSION-} in ?*) setopt PROMPT_SUBST NO_PROMPT_PERCENT NO_PROMPT_BANG NO_PROMPT_SP "
            + "NO_PROMPT_CR NO_BANG_HIST; unset HISTFILE;; esac; "
            + resync(nonce: nonce)
    }

    /// One command as one input line. `eval` runs it in the shell itself (so `cd`, `export`, aliases, functions and
    /// `source` last), with /dev/null as its input (the channel's input is the rest of this protocol) and without
    /// descriptors 8 and 9; `\eval` cannot be an alias. The previous command's status is restored first, so `$?`
    /// means what it means in a terminal (not under `set -e`, which would end the shell on it). The prompts are set
    /// again after the command, in case it changed them (`source ~/.bashrc` does); bash's `PROMPT_COMMAND` and `PS0`,
    /// which would print between commands, are unset.
    static func command(_ text: String, nonce: String, previousStatus: Int32) -> String {
        let restore = previousStatus == 0 ? "" : "case $- in *e*) ;; *) (exit \(previousStatus));; esac; "
        return "__essh_n=\(nonce) __essh_s=; \(restore)\\eval \(quote(text)) </dev/null 8>&- 9>&-; "
            + "__essh_s=$? PS1=\(quote(prompt)) PS2=; unset PROMPT_COMMAND PS0; \(printMarkers); __essh_n=\n"
    }

    /// A line that only prints the markers with `nonce`: sent after an interrupt (the shell dropped the rest of the
    /// line it was running), its markers say where the shell's output ends. The first line sends it too.
    static func resync(nonce: String) -> String {
        "__essh_n=\(nonce) __essh_s=; PS1=\(quote(prompt)) PS2=; \(printMarkers); __essh_n=\n"
    }

    /// Sends `signal` to the shell's process group (the shell and every process it started): an interactive shell
    /// goes back to its prompt on INT and ignores TERM, its commands get the default action. Run on a second channel,
    /// by the login shell; a shell that is not its group's leader gets the signal alone.
    static func signalGroup(_ signal: String, pid: Int) -> String {
        "kill -s \(signal) -- -\(pid) 2>/dev/null || kill -s \(signal) \(pid) 2>/dev/null; :"
    }

    /// Sends `signal` to every process of the shell's group but the shell: what KILL may hit without losing the shell.
    static func signalChildren(_ signal: String, pid: Int) -> String {
        "{ ps -A -o pid= -o pgid= || ps -o pid= -o pgid=; } 2>/dev/null | while read -r p g; do "
            + "[ \"$g\" = \(pid) ] && [ \"$p\" != \(pid) ] && kill -s \(signal) \"$p\" 2>/dev/null; done; :"
    }

    /// `text` as one shell word (`Basics.ShellQuoting`, the one quoter): the shell reads it back byte for byte.
    static func quote(_ text: String) -> String { ShellQuoting.quote(text) }

    /// A fresh nonce: 128 random bits as 32 hex digits.
    static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(hex[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The markers of one prompt print.
    static func stdoutMarker(_ nonce: String) -> [UInt8] { Array("<essh-out \(nonce)>".utf8) }
    static func directoryEnd(_ nonce: String) -> [UInt8] { Array("<essh-cwd \(nonce)>".utf8) }
    static func stderrMarker(_ nonce: String) -> [UInt8] { Array("<essh-err \(nonce)>".utf8) }
}
