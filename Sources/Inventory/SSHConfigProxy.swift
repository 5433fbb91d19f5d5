/// What ssh_config's `ProxyCommand` means to eSSH: `ssh -W %h:%p HOST` (and `ssh -W [%h]:%p HOST`) is the old way
/// of writing `ProxyJump HOST`, so it reads as that jump chain; any other command is one eSSH does not run.
public enum SSHConfigProxy {
    /// The jump chain `command` (ssh_config's words, as split) stands for, or nil when it is not ssh joining its
    /// standard input and output to `%h:%p`. Read: `exec` before it; `ssh` or a path ending in `/ssh`; flags `-q`,
    /// `-x`, `-T`, `-a`, `-n`, `-N`, `-C`, `-4`, `-6` (about ssh's own output and features, not where it goes);
    /// `-l USER` and `-p PORT` (joined into `USER@HOST:PORT`); `-J CHAIN` (its hops come first); `-W` with `%h:%p`
    /// or `[%h]:%p`; then exactly one HOST. Anything else (`-i`, `-o`, `-F`, a command after HOST, `nc`) is nil.
    public static func jump(fromProxyCommand command: [String]) -> String? {
        var words = command[...]
        if words.first == "exec" { words = words.dropFirst() }
        guard let program = words.popFirst(), program == "ssh" || program.hasSuffix("/ssh") else { return nil }
        let flags: Set<Character> = ["q", "x", "T", "a", "n", "N", "C", "4", "6"]
        let valued: Set<Character> = ["l", "p", "J", "W"]
        var user: String?, port: Int?, chain: String?, forward: String?, host: String?
        while let word = words.popFirst() {
            guard word.hasPrefix("-"), word.count > 1 else {
                guard host == nil else { return nil }  // a remote command after HOST
                host = word
                continue
            }
            guard host == nil else { return nil }
            var letters = Substring(word.dropFirst())
            while let letter = letters.popFirst() {
                if flags.contains(letter) { continue }
                guard valued.contains(letter) else { return nil }
                let value = letters.isEmpty ? words.popFirst() : String(letters)
                letters = ""
                guard let value, !value.isEmpty else { return nil }
                switch letter {
                case "l": user = value
                case "p":
                    guard let number = Int(value), (1...65535).contains(number) else { return nil }
                    port = number
                case "J": chain = value
                default: forward = value
                }
            }
        }
        guard forward == "%h:%p" || forward == "[%h]:%p", var host, !host.contains("%") else { return nil }
        if let user, !host.contains("@") { host = user + "@" + host }
        if let port {
            let at = host.lastIndex(of: "@").map { host.index(after: $0) } ?? host.startIndex
            if host[at...].contains(":") { host = String(host[..<at]) + "[" + host[at...] + "]" }
            host += ":\(port)"
        }
        return chain.map { $0 + "," + host } ?? host
    }
}
