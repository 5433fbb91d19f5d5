import Basics
import Foundation

/// Looking one name up, as `ssh NAME` reads its configuration: the files in order, every line under a `Host` (or a
/// `Match` eSSH can evaluate) that applies to the name, the first value obtained winning.
extension SSHConfigReader {
    /// What the file at `path` (and what it includes) says about `name`; nil when there is no file there (no
    /// ssh_config is nothing to report). Throws, as `read` does, for a file that cannot be read or an Include nested
    /// too deep.
    public func lookup(_ name: String, path: String) throws(InventoryError) -> SSHConfigLookup? {
        try lookup([name], path: path)?[0]
    }

    /// What `text`, the contents of `file`, says about `name`.
    public func lookup(_ name: String, text: String, file: String) throws(InventoryError) -> SSHConfigLookup {
        try lookup([name], text: text, file: file)[0]
    }

    /// What the file at `path` says about each of `names` (read once); nil when there is no file there.
    public func lookup(_ names: [String], path: String) throws(InventoryError) -> [SSHConfigLookup]? {
        let text: String
        do {
            text = try source.read(path)
        } catch {
            if Self.isMissing(error) { return nil }
            throw InventoryError(.sshConfig, "\(error)", """
                Cannot read the ssh config \(path): it \(error). Make it a readable regular file, or move it aside.
                """)
        }
        return try lookup(names, text: text, file: path)
    }

    /// What `text`, the contents of `file`, says about each of `names`, in order.
    public func lookup(_ names: [String], text: String, file: String) throws(InventoryError) -> [SSHConfigLookup] {
        let (directives, warnings) = try self.directives(text: text, file: file, outcome: "Nothing was read from it")
        let index = DirectiveIndex(directives) { !$0.condition.refused }
        let notes = warnings.filter { $0.contains("included file") }
        var found: [SSHConfigLookup] = []
        for name in names {
            found.append(lookup(name, directives: directives, candidates: index.candidates(for: name), notes: notes))
        }
        return found
    }

    private func lookup(_ name: String, directives: [Directive], candidates: [Int], notes: [String])
        -> SSHConfigLookup
    {
        var found = SSHConfigLookup(name: name)
        found.notes = notes
        var matchResults: [Int: Bool] = [:]
        var proxyDecided = false
        var identityFiles: [(String, SSHConfigLocation)] = []
        var forwards = SSHConfigForwardLines()
        let lowered = name.lowercased()

        for index in candidates {
            let directive = directives[index]
            let condition = directive.condition
            guard !condition.refused,
                  condition.patternSets.allSatisfy({ Self.matches(name, patterns: $0) }),
                  condition.matchLines.allSatisfy({ matchResults[$0] == true }) else { continue }
            let location = SSHConfigLocation(directive.location) ?? SSHConfigLocation(file: directive.location, line: 0)
            switch directive.keyword {
            case "host":
                if directive.arguments.contains(where: { $0.lowercased() == lowered }) { found.namedLiterally = true }
                continue
            case "match":
                switch matchCriteria(directive.arguments, found: found) {
                case .matches: matchResults[index] = true
                case .fails: matchResults[index] = false
                case .unsupported(let what):
                    matchResults[index] = false
                    found.notes.append("\(location.text(home: home)): Match \(what) is not evaluated by eSSH; "
                                       + "the lines of this Match block were skipped.")
                }
                continue
            default: break
            }
            guard let first = directive.arguments.first else { continue }
            if forwards.take(directive.keyword, directive.arguments, location: location) {
                let block = SSHConfigLocation(condition.block) ?? location
                if !found.blocks.contains(block) { found.blocks.append(block) }
                continue
            }
            let value = { (keyword: String, text: String) in
                SSHConfigLookup.Value(keyword: keyword, text: text, location: location)
            }
            var gave = true
            switch directive.keyword {
            case "hostname" where found.hostName == nil:
                found.hostName = value("HostName", expand(first, tokens: ["h": name]))
            case "user" where found.user == nil: found.user = value("User", first)
            case "port" where found.port == nil: found.port = value("Port", first)
            case "identityfile" where first.lowercased() != "none": identityFiles.append((first, location))
            case "proxyjump" where !proxyDecided, "proxycommand" where !proxyDecided:
                proxyDecided = true
                let keyword = directive.keyword == "proxyjump" ? "ProxyJump" : "ProxyCommand"
                let text = directive.arguments.joined(separator: " ")
                if first.lowercased() != "none" { found.proxy = value(keyword, text) } else { gave = false }
            case "kexalgorithms" where found.algorithms.kex == nil: found.algorithms.kex = first
            case "hostkeyalgorithms" where found.algorithms.hostKeys == nil: found.algorithms.hostKeys = first
            case "ciphers" where found.algorithms.ciphers == nil: found.algorithms.ciphers = first
            case "macs" where found.algorithms.macs == nil: found.algorithms.macs = first
            default: gave = false
            }
            if gave {
                let block = SSHConfigLocation(condition.block) ?? location
                if !found.blocks.contains(block) { found.blocks.append(block) }
            }
        }
        found.forwards = forwards.result
        found.forwardsClearedBy = forwards.clearedBy
        // IdentityFile's tokens stand for the final values, as OpenSSH expands them once the files are read.
        let host = found.hostName?.text ?? name
        let tokens: [Character: String] = [
            "d": home, "u": localUser, "h": host, "n": name, "r": found.user?.text ?? localUser,
            "p": found.port?.text ?? "22",
        ]
        found.identityFiles = identityFiles.map { text, location in
            SSHConfigLookup.Value(keyword: "IdentityFile",
                                  text: PathExpansion.expandTilde(expand(text, tokens: tokens), home: home),
                                  location: location)
        }
        return found
    }

    /// What a `Match` line's criteria say about the name so far.
    enum MatchVerdict: Equatable {
        case matches, fails
        /// A criterion eSSH does not evaluate (`exec`, `canonical`, `final`, `localnetwork`, `tagged`, …), or a
        /// malformed line, named as written.
        case unsupported(String)
    }

    /// OpenSSH's `match_cfg_line` for the criteria that need nothing but the names: `all`, `host` (the HostName
    /// obtained so far, else the name), `originalhost` (the name), `user` (the User so far, else the local user),
    /// `localuser`; each may be negated with `!`. Any other criterion makes the block unsupported, unless one of the
    /// evaluated criteria already fails (then the block does not apply either way, as OpenSSH stops there too).
    func matchCriteria(_ arguments: [String], found: SSHConfigLookup) -> MatchVerdict {
        var result = true
        var unsupported: String?
        var words = arguments[...]
        if words.isEmpty { return .unsupported("without criteria") }
        while let word = words.popFirst() {
            let negate = word.hasPrefix("!")
            let attribute = (negate ? String(word.dropFirst()) : word).lowercased()
            if attribute == "all" {
                if negate { result = false }
                continue
            }
            if attribute == "canonical" || attribute == "final" {
                unsupported = unsupported ?? word
                continue
            }
            guard let argument = words.popFirst() else { return .unsupported("\(word) (no value)") }
            let subject: String
            var ignoreCase = false
            switch attribute {
            case "host":
                subject = found.hostName?.text ?? found.name
                ignoreCase = true
            case "originalhost":
                subject = found.name
                ignoreCase = true
            case "user": subject = found.user?.text ?? localUser
            case "localuser": subject = localUser
            default:
                unsupported = unsupported ?? "\(word) \(argument)"
                continue
            }
            let patterns = argument.split(separator: ",").map(String.init)
            if Self.matches(subject, patterns: patterns, ignoreCase: ignoreCase) == negate { result = false }
        }
        if !result { return .fails }
        return unsupported.map { .unsupported($0) } ?? .matches
    }

    /// OpenSSH's `match_pattern_list`: a matching negated pattern rejects, otherwise any matching pattern accepts.
    static func matches(_ subject: String, patterns: [String], ignoreCase: Bool) -> Bool {
        if ignoreCase { return matches(subject, patterns: patterns) }
        var accepted = false
        for pattern in patterns {
            if pattern.hasPrefix("!") {
                if WildcardPattern.matches(String(pattern.dropFirst()), subject) { return false }
            } else if WildcardPattern.matches(pattern, subject) {
                accepted = true
            }
        }
        return accepted
    }

    /// Whether a source's error says the file is not there.
    static func isMissing(_ error: any Error) -> Bool {
        if let failure = error as? RegularFile.Failure { return failure.kind == .missing }
        if let cocoa = error as? CocoaError { return cocoa.code == .fileReadNoSuchFile || cocoa.code == .fileNoSuchFile }
        return false
    }
}
