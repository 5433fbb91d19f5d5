import Foundation
import SSH

/// Asks the person at the controlling terminal (/dev/tty), as OpenSSH does: host keys, passwords and passphrases
/// (without echo). Answers from a `--password-file` come first. Nothing asked is logged or stored.
struct TerminalPrompter: Prompter {
    /// A password read from `--password-file`; used once.
    let passwordFromFile: String?
    /// Whether a terminal is there to ask on.
    let interactive: Bool
    /// The jump hosts' hosts and how questions name them ("jump host b1"), so a question says which hop asks; the
    /// destination is not among them.
    var hops: [String: String] = [:]

    /// `hops` for `options`: each jump host's host (nearest first, a hop's own jump hosts included) with its name.
    static func hops(of options: ConnectOptions) -> [String: String] {
        func flat(_ o: ConnectOptions) -> [ConnectOptions] { o.jumps.flatMap { flat($0) + [$0] } }
        var found: [String: String] = [:]
        for hop in flat(options) where hop.host != options.host {
            found[hop.host] = "jump host " + (hop.name ?? hop.host)
        }
        return found
    }

    /// True when /dev/tty can be opened: a person may be asked.
    static var hasTerminal: Bool {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    func confirmHostKey(_ q: HostKeyQuestion) -> HostKeyDecision {
        guard interactive else { return .reject }
        let name = q.port == 22 ? q.host : "[\(q.host)]:\(q.port)"
        let hop = hops[q.host].map { " (\($0))" } ?? ""
        var text = "The authenticity of host '\(name)'\(hop) can't be established.\n"
        text += "\(q.key.type) key fingerprint is \(q.key.fingerprint).\n"
        if !q.otherKnownTypes.isEmpty {
            text += "This host already has keys of other types in known_hosts: "
                + q.otherKnownTypes.map { "\($0.key.type) (\($0.file) line \($0.line))" }.joined(separator: ", ") + ".\n"
        }
        if !q.sameKeyElsewhere.isEmpty {
            // As OpenSSH: the same key under another name is most likely the same server.
            text += "This host key is known by the following other names/addresses:\n"
                + q.sameKeyLines.map { "    " + $0 + "\n" }.joined()
        }
        text += "Are you sure you want to continue connecting (yes/no/once/[fingerprint])? "
        while true {
            guard let answer = Self.ask(text, echo: true)?.trimmingCharacters(in: .whitespaces) else { return .reject }
            switch answer.lowercased() {
            case "yes": return .acceptAndSave
            case "once": return .acceptOnce
            case "no", "": return .reject
            default:
                if answer == q.key.fingerprint { return .acceptAndSave }
                text = "Please type 'yes', 'no', 'once' or the fingerprint: "
            }
        }
    }

    func password(user: String, host: String, attempt: Int) -> String? {
        let hop = hops[host]
        // The file's password is the destination's: a jump host asking for one is asked on the terminal.
        if let passwordFromFile, hop == nil { return attempt == 1 ? passwordFromFile : nil }
        guard interactive else { return nil }
        if attempt > 1 { Self.say("Permission denied, please try again.\n") }
        return Self.ask("\(user)@\(host)'s password\(hop.map { " (\($0))" } ?? ""): ", echo: false)
    }

    func passphrase(keyFile: String, attempt: Int) -> String? {
        guard interactive else { return nil }
        if attempt > 1 { Self.say("Wrong passphrase, please try again.\n") }
        return Self.ask("Enter passphrase for key '\(keyFile)': ", echo: false)
    }

    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]? {
        keyboardInteractive(user: "", host: "", name: name, instruction: instruction, prompts: prompts)
    }

    func keyboardInteractive(user: String, host: String, name: String, instruction: String,
                             prompts: [(text: String, echo: Bool)]) -> [String]? {
        // The file's password is the destination's, as for `password`: a jump host's prompts are asked.
        if let passwordFromFile, hops[host] == nil, prompts.count == 1, !prompts[0].echo { return [passwordFromFile] }
        guard interactive else { return nil }
        if let hop = hops[host] { Self.say("(\(hop))\n") }
        if !name.isEmpty { Self.say(name + "\n") }
        if !instruction.isEmpty { Self.say(instruction + "\n") }
        var answers: [String] = []
        for p in prompts {
            guard let a = Self.ask(p.text, echo: p.echo) else { return nil }
            answers.append(a)
        }
        return answers
    }

    private static func say(_ text: String) {
        let fd = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    /// Prints `prompt` on the terminal and reads one line from it, with echo off when asked.
    static func ask(_ prompt: String, echo: Bool) -> String? {
        guard var bytes = askBytes(prompt, echo: echo) else { return nil }
        defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } } }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `ask`'s line as bytes, for a secret the caller wipes (the vault's passphrase and secrets). nil when there is
    /// no terminal or it ended before a line.
    static func askBytes(_ prompt: String, echo: Bool) -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        let hadTermios = tcgetattr(fd, &saved) == 0
        // Echo off before the prompt is shown (as readpassphrase does): an answer typed or pasted the moment the
        // prompt appears is neither echoed nor flushed away.
        if !echo && hadTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer { if !echo && hadTermios { tcsetattr(fd, TCSAFLUSH, &saved) } }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)  // one buffer, so no copies of a secret are left behind by growing
        var c: UInt8 = 0
        while read(fd, &c, 1) == 1 {
            if c == UInt8(ascii: "\n") { return bytes }
            bytes.append(c)
        }
        return bytes.isEmpty ? nil : bytes
    }
}
