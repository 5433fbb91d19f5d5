import Foundation
import LocalProcess
import Vault

/// The vault passphrase asked on the controlling terminal without echo (as ssh asks a password).
struct TerminalVaultPassphrase: VaultPassphraseSource {
    func passphrase(prompt: String) throws(VaultError) -> [UInt8] {
        guard TerminalPrompter.hasTerminal else {
            throw .noPassphrase("""
                No terminal to ask the vault passphrase on. Run `essh vault unlock` in a terminal first, or set \
                vault.passphrase_command (`essh config set vault.passphrase_command 'pass show essh'`).
                """)
        }
        guard let bytes = TerminalPrompter.askBytes(prompt, echo: false), !bytes.isEmpty else {
            throw .noPassphrase("No vault passphrase was given; nothing was changed.")
        }
        return bytes
    }
}

/// The vault passphrase printed by a program the person named (`vault.passphrase_command`, e.g. `pass show essh`):
/// its words split as a shell would split them (quotes, backslashes) but run without a shell, its standard output
/// read (one final newline dropped) and never logged or shown, its standard error left on the person's terminal (for
/// gpg's questions), stopped after `timeout` seconds. This is the runner the shared `command` credential source
/// (issue 17 §2) may replace.
struct CommandVaultPassphrase: VaultPassphraseSource {
    let command: String
    var timeout: TimeInterval = 60

    func passphrase(prompt: String) throws(VaultError) -> [UInt8] {
        guard let words = CommandWords.split(command), let program = words.first else {
            throw .passphraseCommand("vault.passphrase_command is not a command eSSH can run (\(command)): "
                + "check its quotes.")
        }
        let path = program.contains("/") ? program : Self.search(program)
        guard let path else { throw .passphraseCommand("vault.passphrase_command: \(program) was not found on PATH.") }
        guard let pipe = CloseOnExec.pipe() else { throw .passphraseCommand("Cannot open a pipe for the command.") }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(path, Array(words.dropFirst()), stdin: nil, stdout: pipe.write,
                                         closeOtherDescriptors: true)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw .passphraseCommand("vault.passphrase_command: \(error.message)")
        }
        close(pipe.write)
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while output.count < 65_536 {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { timedOut = true; break }
            var poller = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(min(left, 1) * 1000) + 1) <= 0 { continue }
            let n = read(pipe.read, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        Wipe.bytes(&buffer)
        close(pipe.read)
        let status = ChildProcess.wait(pid, timeout: timedOut ? 0 : max(1, deadline.timeIntervalSinceNow))
        if timedOut || status == nil {
            Wipe.bytes(&output)
            throw .passphraseCommand("vault.passphrase_command did not finish within \(Int(timeout)) s; it was stopped.")
        }
        guard status == .exited(0) else {
            Wipe.bytes(&output)
            throw .passphraseCommand("vault.passphrase_command failed (exit status \(status!.shellStatus)); "
                + "nothing was changed.")
        }
        if output.last == 0x0A { output.removeLast() }
        if output.last == 0x0D { output.removeLast() }
        guard !output.isEmpty else {
            throw .passphraseCommand("vault.passphrase_command printed nothing; nothing was changed.")
        }
        return output
    }

    static func search(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

/// A command line split into words as a POSIX shell splits it, without expansions: blanks separate, single quotes
/// keep everything, double quotes keep all but `\"` and `\\`, a backslash outside quotes keeps the next character.
enum CommandWords {
    /// The words; nil for an unclosed quote or a trailing backslash, or no words.
    static func split(_ text: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "'" { closed = true; break }
                    current.append(d)
                }
                if !closed { return nil }
            case "\"":
                inWord = true
                var closed = false
                while let d = iterator.next() {
                    if d == "\"" { closed = true; break }
                    if d == "\\" {
                        guard let e = iterator.next() else { return nil }
                        if e != "\"" && e != "\\" { current.append(d) }
                        current.append(e)
                    } else {
                        current.append(d)
                    }
                }
                if !closed { return nil }
            case "\\":
                guard let d = iterator.next() else { return nil }
                inWord = true
                current.append(d)
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return words.isEmpty ? nil : words
    }
}
