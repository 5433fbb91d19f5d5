import Basics
import Foundation

/// Reads OpenSSH client configuration (ssh_config(5)) into the concrete hosts it names. Pure: files come from an
/// `SSHConfigSource`. Handles `Host` with several patterns and negation, `Include` (globs, `~`, paths relative to
/// ~/.ssh, conditional inside a Host block), comments, `keyword=value`, quotes; skips `Match` blocks and
/// wildcard-only patterns. Nothing is dropped unsaid: a host with a bad `Port` is skipped with the reason, a
/// `ProxyCommand` other than `ssh -W %h:%p HOST` is kept as `unsupportedProxy`, and the options eSSH does not use are
/// listed per host. `ProxyJump` (and `ssh -W`) become the host's jump chain; `LocalForward`, `RemoteForward` and
/// `DynamicForward` lines are collected (Operations reads them into saved tunnels), `ClearAllForwardings yes` clearing
/// them.
public struct SSHConfigReader: Sendable {
    /// The result: hosts in the order their aliases first appear, the hosts skipped, and warnings about lines that
    /// were skipped.
    public struct Result: Sendable, Equatable {
        /// Concrete hosts.
        public var hosts: [SSHConfigHost]
        /// Lines skipped, as "file:line: why".
        public var warnings: [String]
        /// Hosts not imported, with why, in the order their aliases first appear.
        public var skipped: [Skipped] = []
    }

    /// A host not imported.
    public struct Skipped: Error, Sendable, Equatable {
        /// The alias from its `Host` line.
        public var alias: String
        /// Why, a sentence naming the line.
        public var reason: String

        public init(alias: String, reason: String) {
            self.alias = alias
            self.reason = reason
        }
    }

    /// The keywords eSSH reads (the first four apply, then the algorithm lists, then the forwards); every other
    /// keyword that applies to a host is one eSSH does not use, and is listed with the host.
    static let usedKeywords: Set<String> = [
        "hostname", "user", "port", "identityfile", "kexalgorithms", "hostkeyalgorithms", "ciphers", "macs",
        "localforward", "remoteforward", "dynamicforward", "clearallforwardings",
    ]

    /// A line applies when every pattern list in `patternSets` matches the alias; never inside a Match block.
    struct Condition: Equatable {
        var patternSets: [[String]] = []
        var never = false
        /// The Match lines the line sits under (outermost first), as indices of their directives: `lookup`
        /// evaluates the simple ones; the import never does (`never` is set with them).
        var matchLines: [Int] = []
        /// Set for a block refused outright (a control character, an empty Host name): nothing evaluates it.
        var refused = false
        /// Where the Host or Match line governing the line is ("file:line"); "" before the first one.
        var block = ""
    }

    struct Directive {
        var condition: Condition
        /// Lowercased.
        var keyword: String
        /// As written, for messages.
        var spelling = ""
        var arguments: [String]
        var location: String
    }

    /// OpenSSH's own limit on nested Include (READCONF_MAX_DEPTH).
    static let maxDepth = 16
    /// Files read through Include in one read, all paths together: files that include each other several times
    /// would otherwise be read 3^16 times before the depth limit is reached on every path.
    static let maxIncludedFiles = 1_000

    /// Why a read stops: an Include nested too deep, or too many included files.
    struct Stop: Error {
        let location: String
        let message: String
    }

    /// What one read has done so far.
    struct Progress {
        var includedFiles = 0
    }

    let home: String
    let localUser: String
    let source: any SSHConfigSource

    /// A reader resolving `~` and `%d` to `home`, `%u` to `localUser`, files through `source`.
    public init(home: String, localUser: String, source: any SSHConfigSource = FileSystemSSHConfigSource()) {
        self.home = home
        self.localUser = localUser
        self.source = source
    }

    /// Reads the file at `path` and everything it includes.
    public func read(path: String) throws(InventoryError) -> Result {
        let text: String
        do {
            text = try source.read(path)
        } catch {
            throw InventoryError(.sshConfig, "\(error)", """
                Cannot read the ssh config \(path): it \(error). Name a readable regular file.
                """)
        }
        return try evaluate(text: text, file: path)
    }

    /// Reads `text` as the contents of `file`. Throws when an Include nests deeper than OpenSSH allows or includes
    /// too many files (OpenSSH stops there too): nothing of such a configuration is imported.
    public func evaluate(text: String, file: String) throws(InventoryError) -> Result {
        let read = try directives(text: text, file: file, outcome: "Nothing was imported")
        let directives = read.directives
        let warnings = read.warnings
        var aliases: [String] = []
        var seen = Set<String>()
        for directive in directives where directive.keyword == "host" {
            for pattern in directive.arguments where !pattern.hasPrefix("!") {
                if pattern.contains(where: { $0 == "*" || $0 == "?" }) { continue }
                if seen.insert(pattern).inserted { aliases.append(pattern) }
            }
        }
        let index = DirectiveIndex(directives) { !$0.condition.never }
        var hosts: [SSHConfigHost] = []
        var skipped: [Skipped] = []
        for alias in aliases {
            let candidates = index.candidates(for: alias).map { directives[$0] }
            switch host(alias, directives: candidates) {
            case .success(let host): hosts.append(host)
            case .failure(let why): skipped.append(why)
            }
        }
        return Result(hosts: hosts, warnings: warnings, skipped: skipped)
    }

    /// Lines under a Host line of literal names can only apply to those names: indexing them by name keeps a
    /// config of 10,000 hosts from costing 10,000 times every line.
    struct DirectiveIndex {
        var byName: [String: [Int]] = [:]
        var general: [Int] = []

        /// The directives `including` keeps, by the literal names they are limited to.
        init(_ directives: [Directive], including: (Directive) -> Bool) {
            for (i, directive) in directives.enumerated() where including(directive) {
                let sets = directive.condition.patternSets
                if sets.count == 1, sets[0].allSatisfy({ !$0.contains(where: { "*?!".contains($0) }) }) {
                    for name in Set(sets[0].map { $0.lowercased() }) { byName[name, default: []].append(i) }
                } else {
                    general.append(i)
                }
            }
        }

        /// The indices of the directives that may apply to `name`, in order.
        func candidates(for name: String) -> [Int] {
            SSHConfigReader.merged(byName[name.lowercased()] ?? [], general)
        }
    }

    /// Every line of `text` and the files it includes, in the order OpenSSH reads them, and the lines refused.
    /// `outcome` says in the error what did not happen ("Nothing was imported").
    func directives(text: String, file: String, outcome: String) throws(InventoryError)
        -> (directives: [Directive], warnings: [String])
    {
        var directives: [Directive] = []
        var warnings: [String] = []
        var progress = Progress()
        do {
            try collect(text: text, file: file, outer: Condition(), depth: 0, into: &directives, warnings: &warnings,
                        progress: &progress)
        } catch let stop as Stop {
            throw InventoryError(.sshConfig, "\(stop.location): \(stop.message)",
                                 "\(stop.location): \(stop.message). \(outcome); fix the Include lines.")
        } catch {
            throw InventoryError(.sshConfig, "\(error)", "Cannot read the ssh config \(file): \(error).")
        }
        return (directives, warnings)
    }

    private func collect(text: String, file: String, outer: Condition, depth: Int, into directives: inout [Directive],
                         warnings: inout [String], progress: inout Progress) throws(Stop) {
        var condition = outer
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let location = "\(file):\(lineNumber)"
            guard let (spelling, arguments) = Self.split(line: String(rawLine)) else { continue }
            let keyword = spelling.lowercased()
            // A control character (NUL, ESC, …) has no place in ssh_config and would reach a terminal or the
            // database: the line is refused, and a Host line's whole block with it.
            if rawLine.unicodeScalars.contains(where: Self.isControl) {
                warnings.append("\(location): holds a control character; "
                                + (keyword == "host" ? "this Host block was skipped" : "line skipped"))
                if keyword == "host" || keyword == "match" {
                    condition = outer
                    condition.never = true
                    condition.refused = true
                    condition.block = location
                }
                continue
            }
            // `Host ""` (or an unclosed quote) names nobody; OpenSSH refuses the file ("empty argument"), eSSH the block.
            if keyword == "host" && arguments.contains("") {
                warnings.append("\(location): Host has an empty name; this Host block was skipped")
                condition = outer
                condition.never = true
                condition.refused = true
                condition.block = location
                continue
            }
            switch keyword {
            case "host":
                condition = outer
                condition.patternSets.append(arguments)
                condition.block = location
                directives.append(Directive(condition: condition, keyword: keyword, arguments: arguments,
                                            location: location))
            case "match":
                condition = outer
                condition.never = true
                condition.block = location
                directives.append(Directive(condition: condition, keyword: keyword, arguments: arguments,
                                            location: location))
                condition.matchLines.append(directives.count - 1)
            case "include":
                if depth >= Self.maxDepth {
                    throw Stop(location: location, message: "Too many recursive configuration includes "
                               + "(Include nested deeper than \(Self.maxDepth) levels, as OpenSSH refuses)")
                }
                for pattern in arguments {
                    var path = PathExpansion.expandTilde(pattern, home: home)
                    if !path.hasPrefix("/") { path = home + "/.ssh/" + path }
                    for included in source.paths(matching: path) {
                        progress.includedFiles += 1
                        if progress.includedFiles > Self.maxIncludedFiles {
                            throw Stop(location: location, message: "Include read more than "
                                       + "\(Self.maxIncludedFiles) files in all (files that include each other?)")
                        }
                        let text: String
                        do {
                            text = try source.read(included)
                        } catch {
                            warnings.append("\(location): cannot read included file \(included) (\(error)), skipped")
                            continue
                        }
                        try collect(text: text, file: included, outer: condition, depth: depth + 1,
                                    into: &directives, warnings: &warnings, progress: &progress)
                    }
                }
            default:
                directives.append(Directive(condition: condition, keyword: keyword, spelling: spelling,
                                            arguments: arguments, location: location))
            }
        }
    }

    private func host(_ alias: String, directives: [Directive]) -> Swift.Result<SSHConfigHost, Skipped> {
        var hostName: String?, user: String?, portText: String?, identity: String?
        var algorithms = AlgorithmChoices()
        var portLocation = ""
        // ProxyJump and ProxyCommand: the first obtained of either wins, as in OpenSSH; "none" is no proxy.
        var proxy: Directive?
        var unused: [String] = []
        var seenUnused = Set<String>()
        var identities = 0
        var forwards = SSHConfigForwardLines()
        for directive in directives where Self.matches(alias, directive.condition) {
            guard let value = directive.arguments.first else { continue }
            let location = SSHConfigLocation(directive.location) ?? SSHConfigLocation(file: directive.location, line: 0)
            if forwards.take(directive.keyword, directive.arguments, location: location) { continue }
            switch directive.keyword {
            case "hostname" where hostName == nil: hostName = value
            case "user" where user == nil: user = value
            case "port" where portText == nil:
                portText = value
                portLocation = directive.location
            case "identityfile" where value.lowercased() != "none":
                identities += 1
                if identity == nil { identity = value }
            case "kexalgorithms" where algorithms.kex == nil: algorithms.kex = value
            case "hostkeyalgorithms" where algorithms.hostKeys == nil: algorithms.hostKeys = value
            case "ciphers" where algorithms.ciphers == nil: algorithms.ciphers = value
            case "macs" where algorithms.macs == nil: algorithms.macs = value
            case "proxyjump", "proxycommand":
                if proxy == nil { proxy = directive }
            case "host":
                break
            case let keyword where !Self.usedKeywords.contains(keyword):
                if seenUnused.insert(keyword).inserted { unused.append(directive.spelling) }
            default: break
            }
        }
        // ProxyJump as written, and `ProxyCommand ssh -W %h:%p HOST` as the ProxyJump it stands for; another
        // ProxyCommand is kept in the note and said to be unsupported (the host is saved without it).
        var jump: String?
        var unsupportedProxy: String?
        if let proxy, proxy.arguments.first?.lowercased() != "none" {
            if proxy.keyword == "proxyjump" {
                jump = proxy.arguments.joined(separator: " ")
            } else if let chain = SSHConfigProxy.jump(fromProxyCommand: proxy.arguments) {
                jump = chain
            } else {
                unsupportedProxy = "ProxyCommand \(proxy.arguments.joined(separator: " ")) (\(proxy.location))"
            }
        }
        var port: Int?
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                return .failure(Skipped(alias: alias,
                                        reason: "its Port '\(portText)' (\(portLocation)) is not 1-65535"))
            }
            port = number
        }
        if identities > 1 { unused.append("IdentityFile (all but the first)") }
        let expandedHost = hostName.map { expand($0, tokens: ["h" as Character: alias]) }
        let tokens: [Character: String] = [
            "d": home, "u": localUser, "h": expandedHost ?? alias, "n": alias, "r": user ?? localUser,
            "p": String(port ?? 22),
        ]
        let identityFile = identity.map { PathExpansion.expandTilde(expand($0, tokens: tokens), home: home) }
        return .success(SSHConfigHost(alias: alias, hostName: expandedHost, user: user, port: port,
                                      identityFile: identityFile, algorithms: algorithms, unusedOptions: unused,
                                      jump: jump, unsupportedProxy: unsupportedProxy, forwards: forwards.result,
                                      forwardsClearedBy: forwards.clearedBy))
    }

    /// C0 controls but tab, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }

    /// Two ascending index lists as one ascending list.
    static func merged(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                out.append(a[i])
                i += 1
            } else {
                out.append(b[j])
                j += 1
            }
        }
        return out
    }

    /// Replaces `%x` tokens; `%%` is a percent sign; unknown tokens stay as they are.
    func expand(_ text: String, tokens: [Character: String]) -> String {
        var out = ""
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            guard c == "%" else { out.append(c); continue }
            guard let t = iterator.next() else { out.append(c); break }
            if t == "%" { out.append("%") } else if let value = tokens[t] { out += value } else { out += "%\(t)" }
        }
        return out
    }

    static func matches(_ alias: String, _ condition: Condition) -> Bool {
        if condition.never { return false }
        return condition.patternSets.allSatisfy { matches(alias, patterns: $0) }
    }

    /// OpenSSH's rule: a matching negated pattern rejects; otherwise any matching pattern accepts.
    static func matches(_ alias: String, patterns: [String]) -> Bool {
        let name = alias.lowercased()
        var accepted = false
        for pattern in patterns {
            if pattern.hasPrefix("!") {
                if WildcardPattern.matches(pattern.dropFirst().lowercased(), name) { return false }
            } else if WildcardPattern.matches(pattern.lowercased(), name) {
                accepted = true
            }
        }
        return accepted
    }

    /// A line as (keyword as written, arguments), or nil for blanks and comments. Accepts `Key value`,
    /// `Key=value`, `Key = value`; arguments split as OpenSSH's argv_split does: `"…"` and `'…'` quote, `\\`,
    /// `\"`, `\'` (and `\ ` outside quotes) are escapes, an unquoted `#` starting a word ends the line.
    static func split(line: String) -> (String, [String])? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        var words: [String] = []
        var current = ""
        var quote: Character?
        var hasWord = false, sawEquals = false
        var chars = Array(trimmed)[...]
        while let c = chars.popFirst() {
            if c == "\\", let next = chars.first,
               next == "\\" || next == "\"" || next == "'" || (quote == nil && next == " ") {
                current.append(next)
                chars = chars.dropFirst()
                hasWord = true
            } else if let open = quote {
                if c == open { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                hasWord = true
            } else if c == "#" && !hasWord && !words.isEmpty {
                break
            } else if c == " " || c == "\t"
                        || (c == "=" && !sawEquals && (words.isEmpty || (words.count == 1 && !hasWord))) {
                if c == "=" { sawEquals = true }
                if hasWord {
                    words.append(current)
                    current = ""
                    hasWord = false
                }
            } else {
                current.append(c)
                hasWord = true
            }
        }
        if hasWord { words.append(current) }
        guard let keyword = words.first else { return nil }
        return (keyword, Array(words.dropFirst()))
    }
}
